"""A table object fills a collections.OrderedDict with setdefault in a chained `add` method and reads it in `__getitem__`; the bad kernel returns.  JAX: ValueError "... should return None"."""
import collections
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def ok_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bad_kernel(x_ref, o_ref):
    return x_ref[...] * 7  # expect: PAL001

class Table:
    def __init__(self):
        self._by_name = collections.OrderedDict()

    def add(self, name, fn):
        self._by_name.setdefault(name, fn)
        return self

    def __getitem__(self, name):
        return self._by_name[name]

TABLE = Table().add("ok", ok_kernel).add("bad", bad_kernel)

def run(name, x):
    return pl.pallas_call(TABLE[name], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128))
print(run("ok", x).sum(), run("bad", x).sum())
