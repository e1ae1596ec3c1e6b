"""`dict(zip(NAMES, (k1, k2)))` maps names to kernels; k2 returns its input.  JAX: ValueError "... should return None"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def k1(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def k2(x_ref, o_ref):
    return x_ref[...]  # expect: PAL001

NAMES = ("one", "two")
TABLE = dict(zip(NAMES, (k1, k2)))

def run(name, x):
    return pl.pallas_call(TABLE[name], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128))
print(run("one", x).sum(), run("two", x).sum())
