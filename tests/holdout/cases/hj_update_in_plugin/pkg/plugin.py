from .kernels import bump
from .registry import IMPLS

IMPLS.update(main=bump)
