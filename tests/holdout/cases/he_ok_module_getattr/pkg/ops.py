from .kernels import KS


def __getattr__(name):
    if name.endswith("_kernel"):
        return KS[name.removesuffix("_kernel")]
    raise AttributeError(name)
