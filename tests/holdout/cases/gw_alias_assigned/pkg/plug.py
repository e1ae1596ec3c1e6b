from .kernels import bump
from .registry import register

r = register
r(bump)
