REGISTRY = {}


def register(name):
    def wrap(cls):
        REGISTRY[name] = cls
        return cls
    return wrap
