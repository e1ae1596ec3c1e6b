try:
    from .fast_impl import kernel
except ImportError:
    from .kernels import copy as kernel
