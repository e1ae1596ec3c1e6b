import functools

from kernels import body

PRESET = functools.partial(body, fused=False)
