from .kernels import bump
from .registry import register


def setup():
    register(bump)


setup()
