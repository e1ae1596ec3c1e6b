"""A frozen dataclass config holds the kernel; `dataclasses.replace(base, kernel=fancy)` swaps in one that returns.  JAX: ValueError "... should return None"."""
import dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def plain(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def fancy(x_ref, o_ref):
    return x_ref[...] ** 2  # expect: PAL001

@dataclasses.dataclass(frozen=True)
class Config:
    kernel: object = plain
    block: int = 128

def run(cfg, x):
    return pl.pallas_call(cfg.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

base = Config()
print(run(base, jnp.ones((8, 128))).sum())
print(run(dataclasses.replace(base, kernel=fancy), jnp.ones((8, 128))).sum())
