"""pl.kernel given `functools.partial(body, cfg=...)` and a TUPLE out_type (two outputs); the
body has only one output parameter.  JAX: TypeError "_gather_body() takes 2 positional arguments but 3 positional arguments (and 1 keyword-only argument) were given"."""
import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


@dataclasses.dataclass(frozen=True)
class Config:
    rows: int = 8
    cols: int = 128


def _gather_body(x_hbm, nope_hbm, *, cfg):
    pltpu.sync_copy(x_hbm, nope_hbm)


def gather(x, cfg):
    mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
    out = jax.ShapeDtypeStruct((cfg.rows, cfg.cols), x.dtype)
    nope, rope = pl.kernel(
        functools.partial(_gather_body, cfg=cfg),  # expect: PAL004
        out_type=(out, out),
        mesh=mesh,
        interpret=pltpu.InterpretParams(),
    )(x)
    return nope, rope


print(gather(jnp.ones((8, 128), jnp.float32), Config()))
