"""import pkg.registry as reg; reg.IMPLS[...]  JAX: runs."""
from jax.experimental import pallas as pl
from pkg.kernels import x, S
import pkg.fast
import pkg.plain
import pkg.registry as reg

kernel = reg.IMPLS["main"]
print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())
