import kernels

KERNEL = kernels.bump
