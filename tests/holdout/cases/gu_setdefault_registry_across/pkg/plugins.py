from .kernels import copy, bump

PLUGINS = {}
PLUGINS.setdefault("main", bump)
PLUGINS.setdefault("main", copy)
