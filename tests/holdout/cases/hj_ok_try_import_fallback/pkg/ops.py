try:
    from .missing_impl import kernel
except ImportError:
    from .kernels import copy as kernel
