from .kernels import bump
from .registry import register

register("main")(bump)
