from kernels import copy as kernel  # noqa: F401
