"""pkg.defaults rebinds DEFAULT; main imports the final value  JAX: ValueError "should return None"."""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
from pkg.defaults import DEFAULT

kernel = DEFAULT
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
