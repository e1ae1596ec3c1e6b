def __getattr__(name):
    if name in ("copy", "bump"):
        from . import impl
        return getattr(impl, name)
    raise AttributeError(name)
