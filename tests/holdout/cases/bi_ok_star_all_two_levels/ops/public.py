__all__ = ["copy", "bump"]
from ._impl import bump, copy  # noqa: F401
