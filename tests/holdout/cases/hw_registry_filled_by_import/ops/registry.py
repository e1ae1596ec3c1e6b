KERNELS = {}


def register(name):
    def wrap(fn):
        KERNELS[name] = fn
        return fn
    return wrap
