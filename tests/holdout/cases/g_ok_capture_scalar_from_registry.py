"""The same registry holding a Python float; the kernel closes over the float.  JAX: runs."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

CONSTS = {}

def const(name):
    def deco(fn):
        CONSTS[name] = fn()
        return fn
    return deco

@const("scale")
def make_scale():
    return 2.0

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * CONSTS["scale"]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
