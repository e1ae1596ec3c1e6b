USE_FAST = True
