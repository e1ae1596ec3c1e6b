from ..kernels import KS

DEFAULT = KS["bump"]
