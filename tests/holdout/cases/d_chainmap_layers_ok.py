"""Kernels looked up in a `collections.ChainMap(overrides, defaults)`; every kernel writes its output ref.  JAX: runs."""
import collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def relu_kernel(x_ref, o_ref):
    o_ref[...] = jnp.maximum(x_ref[...], 0)

def gelu_kernel(x_ref, o_ref):
    o_ref[...] = jax.nn.gelu(x_ref[...])

TABLE = collections.ChainMap({"gelu": gelu_kernel}, {"relu": relu_kernel})

def act(name, x):
    return pl.pallas_call(TABLE[name], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128))
print(act("relu", x).sum(), act("gelu", x).sum(), len(TABLE.new_child().maps))
