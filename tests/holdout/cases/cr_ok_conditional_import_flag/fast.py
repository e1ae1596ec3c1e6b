from kernels import bump as kernel  # noqa: F401
