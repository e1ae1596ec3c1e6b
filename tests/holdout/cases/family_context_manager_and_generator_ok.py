"""A context manager yields the launch configuration; a generator yields block shapes.  JAX: runs."""

import contextlib
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


@contextlib.contextmanager
def launch_config(x):
    yield dict(out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def blocks(n):
    for b in (8, 16):
        yield (b, 128)


x = jnp.ones((16, 128), jnp.float32)
with launch_config(x) as cfg:
    print(pl.pallas_call(add_one, **cfg)(x).sum())
for shape in blocks(2):
    spec = pl.BlockSpec(shape, lambda i: (i, 0))
    print(
        pl.pallas_call(
            add_one,
            grid=(16 // shape[0],),
            in_specs=[spec],
            out_specs=spec,
            out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
            interpret=True,
        )(x).sum()
    )
