IMPLS = {}


def register(name):
    def add(fn):
        IMPLS[name] = fn
        return fn

    return add
