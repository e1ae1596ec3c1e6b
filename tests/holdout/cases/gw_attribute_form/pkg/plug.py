from .kernels import bump
from . import registry

registry.register(bump)
