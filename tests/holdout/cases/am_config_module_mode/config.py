MODE = "bump"
