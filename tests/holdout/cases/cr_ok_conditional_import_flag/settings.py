USE_FAST = False
