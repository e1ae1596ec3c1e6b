"""A `pltpu.emit_pipeline` body reached through functools.partial returns its block (PAL006: JAX
drops it, or rejects it under jax_use_emit_pipeline_primitive, as here).  JAX: ValueError "The emit_pipeline body function must return None."."""
import functools

import jax
import jax.numpy as jnp
from jax._src import config
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def _scale_block(x_ref, o_ref, *, factor):
    y = x_ref[...] * factor
    o_ref[...] = y
    return y  # expect: PAL006


def kernel(x_hbm, o_hbm):
    block = pl.BlockSpec((8, 128), lambda i: (i, 0))
    body = functools.partial(_scale_block, factor=2.0)
    pltpu.emit_pipeline(body, grid=(2,), in_specs=[block], out_specs=[block])(x_hbm, o_hbm)


run = pl.pallas_call(
    kernel,
    out_shape=jax.ShapeDtypeStruct((16, 128), jnp.float32),
    in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
    out_specs=pl.BlockSpec(memory_space=pl.ANY),
    interpret=True,
)
with config.use_emit_pipeline_primitive(True):
    jax.eval_shape(run, jnp.ones((16, 128), jnp.float32))
