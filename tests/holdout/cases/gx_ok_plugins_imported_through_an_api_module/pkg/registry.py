REG = []


def register(fn):
    REG.append(fn)
    return fn
