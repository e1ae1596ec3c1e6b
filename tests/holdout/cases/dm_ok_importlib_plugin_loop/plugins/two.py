from . import register
from .kernels import bump

register("bump")(bump)
