FAST = False
