REG = {}


def register(name):
    def deco(fn):
        REG[name] = fn
        return fn
    return deco
