import kernels

KERNEL = kernels.copy
