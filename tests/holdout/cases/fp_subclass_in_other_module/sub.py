from base import Base
from kernels import bump


class Fast(Base):
    kernel = staticmethod(bump)


class Safe(Base):
    pass
