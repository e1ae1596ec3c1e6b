from .kernels import KS

_CACHE = {}


def get(name):
    if name not in _CACHE:
        _CACHE[name] = KS[name]
    return _CACHE[name]
