"""A tokamax-style op: config dataclass, enum impl table, jit with a static config: Config(impl=Impl.XLA).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

class Impl(enum.Enum):
    XLA = "xla"
    PALLAS = "pallas"


@dataclasses.dataclass(frozen=True)
class Config:
    block_rows: int = 8
    impl: Impl = Impl.PALLAS
    fused: bool = True


def _kernel(x_ref, o_ref, *, fused):
    if fused:
        return x_ref[...] * 2
    o_ref[...] = x_ref[...] * 2


def _pallas_double(x, config: Config):
    kernel = functools.partial(_kernel, fused=config.fused)
    spec = pl.BlockSpec((config.block_rows, x.shape[1]), lambda i: (i, 0))
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // config.block_rows,),
        in_specs=[spec],
        out_specs=spec,
        interpret=True,
    )(x)


def _xla_double(x, config: Config):
    return x * 2


_IMPLS = {Impl.XLA: _xla_double, Impl.PALLAS: _pallas_double}


@functools.partial(jax.jit, static_argnames=("config",))
def double(x, config: Config = Config()):
    return _IMPLS[config.impl](x, config)


x = jnp.ones((16, 128), jnp.float32)
print(double(x, Config(impl=Impl.XLA)).sum())
