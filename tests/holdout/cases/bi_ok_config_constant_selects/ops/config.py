MODE = "plain"
