_TABLE = {}


def register(name):
    def deco(fn):
        _TABLE[name] = fn
        return fn

    return deco


def get(name):
    return _TABLE[name]
