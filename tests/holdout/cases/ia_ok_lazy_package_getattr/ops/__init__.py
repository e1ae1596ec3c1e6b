import importlib


def __getattr__(name):
    if name in ("copy", "bump"):
        return getattr(importlib.import_module(".impl", __name__), name)
    raise AttributeError(name)
