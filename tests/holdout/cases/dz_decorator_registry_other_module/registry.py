_REG = {}


def register(name):
    def deco(fn):
        _REG[name] = fn
        return fn

    return deco


def get(name):
    return _REG[name]
