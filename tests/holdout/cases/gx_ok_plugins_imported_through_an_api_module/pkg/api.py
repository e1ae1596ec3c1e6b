from . import impls
from .registry import REG


def default():
    return REG[0]
