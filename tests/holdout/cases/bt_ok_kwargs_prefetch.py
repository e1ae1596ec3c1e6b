"""A launcher reads num_scalar_prefetch from **options ({what}) (matching).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def launch(kernel, *args, **options):
    spec = pl.BlockSpec((8, 128), lambda i, *_: (0, 0))
    grid_spec = pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=options.get("prefetch", 0), grid=(1,), in_specs=[spec], out_specs=spec
    )
    return pl.pallas_call(kernel, out_shape=S, grid_spec=grid_spec, interpret=True)(*args)

def kernel(s_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]

idx = jnp.zeros((1,), jnp.int32)
print(launch(kernel, idx, x, prefetch=1).sum())
