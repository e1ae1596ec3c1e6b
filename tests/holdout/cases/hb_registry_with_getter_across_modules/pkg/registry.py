_IMPLS = {}


def register(name):
    def add(fn):
        _IMPLS[name] = fn
        return fn

    return add


def get(name):
    return _IMPLS[name]


def names():
    return list(_IMPLS.keys())
