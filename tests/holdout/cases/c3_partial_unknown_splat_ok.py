"""`functools.partial(pl.kernel, **options)` where the options dict is built by a comprehension:
its keys (here `out_type`) cannot be read, so the refs pl.kernel passes cannot be counted and
nothing may be reported.  Valid: one input and one output ref."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel_options(x):
    pairs = [("out_type", jax.ShapeDtypeStruct(x.shape, x.dtype)),
             ("mesh", pltpu.create_tensorcore_mesh("core", num_cores=1))]
    return {key: value for key, value in pairs}


def copy(x):
    launch = functools.partial(pl.kernel, interpret=pltpu.InterpretParams(), **kernel_options(x))

    @launch
    def body(x_ref, o_ref):
        pltpu.sync_copy(x_ref, o_ref)

    return body(x)


print(copy(jnp.ones((8, 128), jnp.float32)).sum())
