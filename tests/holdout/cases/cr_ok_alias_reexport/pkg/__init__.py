from .kernels import copy as default_kernel  # noqa: F401
