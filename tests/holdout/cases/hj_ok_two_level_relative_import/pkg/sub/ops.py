from ..kernels import KS

DEFAULT = KS["copy"]
