_KERNELS = {}


def register(name):
    def wrap(fn):
        _KERNELS[name] = fn
        return fn
    return wrap


def get(name):
    try:
        return _KERNELS[name]
    except KeyError:
        raise ValueError(f"no kernel {name!r}") from None
