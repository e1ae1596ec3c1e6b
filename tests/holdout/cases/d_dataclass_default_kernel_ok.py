"""A dataclass field's default is a kernel function: on an instance it is the instance's own
attribute, not a bound method, so the kernel takes exactly the refs.  (pallas-ls once read it as a
method and reported a false PAL004.)  JAX: runs."""
import dataclasses
from typing import Callable
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def plain(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def doubled(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2

@dataclasses.dataclass(frozen=True)
class Config:
    kernel: Callable = plain
    block: int = 128

def run(cfg, x):
    return pl.pallas_call(cfg.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

base = Config()
print(run(base, jnp.ones((8, 128))).sum(), run(dataclasses.replace(base, kernel=doubled), jnp.ones((8, 128))).sum())
