"""PrefetchScalarGridSpec(num_scalar_prefetch=1) launching without_index, which takes x_ref, o_ref.  JAX: TypeError (kernel arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

idx = jnp.zeros((1,), jnp.int32)


def with_index(i_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


def without_index(x_ref, o_ref):
    o_ref[...] = x_ref[...]


spec = pltpu.PrefetchScalarGridSpec(
    num_scalar_prefetch=1,
    grid=(1,),
    in_specs=[pl.BlockSpec((8, 128), lambda g, *_: (0, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda g, *_: (0, 0)),
)
print(pl.pallas_call(without_index, out_shape=S, grid_spec=spec, interpret=True)(idx, x).sum())  # expect: PAL004
