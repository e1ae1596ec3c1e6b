from .kernels import bump
from .registry import *

register(bump)
