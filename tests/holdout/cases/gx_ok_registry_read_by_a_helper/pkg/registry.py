REG = []


def register(fn):
    REG.append(fn)
    return fn


def latest():
    return REG[-1]


def earliest():
    return REG[0]
