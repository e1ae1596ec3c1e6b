from .kernels import bump as kernel
