from .ops import run
