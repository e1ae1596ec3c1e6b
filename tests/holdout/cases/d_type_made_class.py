"""A class made by `type("Spec", (), {...})` holds a staticmethod kernel that returns.  JAX: ValueError "... should return None"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def _k(x_ref, o_ref):
    return x_ref[...] + 2  # expect: PAL001

Spec = type("Spec", (), {"kernel": staticmethod(_k), "scale": 2})

def run(spec, x):
    return pl.pallas_call(spec.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(Spec, jnp.ones((8, 128))).sum())
