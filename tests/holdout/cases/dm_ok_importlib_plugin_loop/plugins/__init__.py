import importlib

REGISTRY = {}


def register(name):
    def deco(fn):
        REGISTRY[name] = fn
        return fn

    return deco


for _name in ("one", "two"):
    importlib.import_module(f".{_name}", __name__)
