from .kernels import bump as default_kernel
