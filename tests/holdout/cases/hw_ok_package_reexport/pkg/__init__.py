from .kernels import copy as default_kernel
