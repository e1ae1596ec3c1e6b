IMPL = "bump"
