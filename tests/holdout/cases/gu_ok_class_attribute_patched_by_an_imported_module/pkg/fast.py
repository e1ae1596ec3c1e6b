from .kernels import bump
from .ops import Op

Op.kernel = staticmethod(bump)
