REGISTRY = {}


def register(name):
    def deco(fn):
        REGISTRY[name] = fn
        return fn

    return deco


from . import fast, slow  # noqa: E402  (they register)
