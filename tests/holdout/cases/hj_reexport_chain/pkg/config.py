MODE = "fast"
