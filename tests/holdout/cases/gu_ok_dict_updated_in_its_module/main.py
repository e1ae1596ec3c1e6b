"""pkg.table updates a key after making the dict  JAX: runs."""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
from pkg.table import TABLE

kernel = TABLE["k"]
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
