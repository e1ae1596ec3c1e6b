REGISTRY = {}
from . import impls  # noqa: E402,F401  (registers)
