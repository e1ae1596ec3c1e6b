"""Kernels put on a SimpleNamespace by `setattr` in a module-level loop, fetched with `getattr(kernels, name)`. The double kernel returns.  JAX: ValueError "... should return None"."""
import types
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

kernels = types.SimpleNamespace()

def _copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def _double(x_ref, o_ref):
    return x_ref[...] * 2  # expect: PAL001

for _name, _fn in (("copy", _copy), ("double", _double)):
    setattr(kernels, _name, _fn)

def run(name, x):
    return pl.pallas_call(getattr(kernels, name), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128))
print(run("copy", x).sum(), run("double", x).sum())
