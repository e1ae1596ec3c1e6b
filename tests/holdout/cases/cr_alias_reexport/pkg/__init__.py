from .kernels import bump as default_kernel  # noqa: F401
