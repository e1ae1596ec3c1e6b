"""Kernel held as a field of a frozen dataclass config, launched as `cfg.kernel`.
JAX: ValueError "... should return None"."""
import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def gelu_kernel(x_ref, o_ref):
    o_ref[...] = jax.nn.gelu(x_ref[...])
    return 0  # expect: PAL001


@dataclasses.dataclass(frozen=True)
class KernelConfig:
    kernel: Callable
    block_rows: int = 8


def run(cfg: KernelConfig, x):
    spec = pl.BlockSpec((cfg.block_rows, x.shape[1]), lambda i: (i, 0))
    return pl.pallas_call(
        cfg.kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // cfg.block_rows,),
        in_specs=[spec],
        out_specs=spec,
        interpret=True,
    )(x)


print(run(KernelConfig(kernel=gelu_kernel), jnp.ones((16, 128), jnp.float32)).sum())
