MODE = "copy"
