"""Models of `types` (see `pallas_ls.engine.models`): read as source, never imported."""


class SimpleNamespace:
    """Its instances are made by the interpreter itself (`Interpreter.external_call`): each keyword
    argument a field of its own, as dataclass fields are; this class gives them their identity."""
