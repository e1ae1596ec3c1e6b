"""pkg.ops stores OP.kernel after making OP; main reads it  JAX: ValueError "should return None"."""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
from pkg.ops import OP

kernel = OP.kernel
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
