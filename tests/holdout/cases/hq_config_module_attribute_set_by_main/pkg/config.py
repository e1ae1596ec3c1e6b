IMPL = "copy"
