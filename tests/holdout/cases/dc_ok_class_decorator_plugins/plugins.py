import core


@core.plugin("fast")
class Fast(core.Base):
    kernel = staticmethod(core.bump)


@core.plugin("safe")
class Safe(core.Base):
    pass
