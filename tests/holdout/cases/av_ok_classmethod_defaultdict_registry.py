"""A classmethod decorator registers kernels into a defaultdict whose factory gives the writing kernel; the loop skips the registered name.  JAX: runs."""
import collections, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1

class Registry:
    _table = collections.defaultdict(lambda: copy)

    @classmethod
    def register(cls, name):
        def deco(fn):
            cls._table[name] = fn
            return fn
        return deco

    @classmethod
    def get(cls, name):
        return cls._table[name]

Registry.register("fast")(bump)

x = jnp.ones((8, 128), jnp.float32)
for name in sorted({"fast": 1, "slow": 2}):
    if name.startswith("f"):
        continue
    print(name, pl.pallas_call(Registry.get(name), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
