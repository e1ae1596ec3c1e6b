_KERNELS = {}


def register(name):
    def add(fn):
        _KERNELS[name] = fn
        return fn
    return add


def get(name):
    return _KERNELS[name]
