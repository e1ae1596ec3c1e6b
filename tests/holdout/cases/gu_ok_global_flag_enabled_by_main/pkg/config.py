FAST = False


def enable(on=True):
    global FAST
    FAST = on
