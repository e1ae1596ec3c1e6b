"""A kernel registry: `@register("name")` stores the kernel function and returns it unchanged."""
KERNELS = {}


def register(name):
    def deco(fn):
        KERNELS[name] = fn
        return fn

    return deco


def get_kernel(name):
    return KERNELS[name]
