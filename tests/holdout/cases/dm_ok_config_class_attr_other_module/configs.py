import kernels


class Base:
    kernel = staticmethod(kernels.copy)


class Fast(Base):
    kernel = staticmethod(kernels.copy)
