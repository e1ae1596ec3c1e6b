FAST = True
