"""a subpackage imports the kernels two levels up  JAX: ValueError "should return None"."""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
from pkg.sub.ops import DEFAULT

kernel = DEFAULT
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
