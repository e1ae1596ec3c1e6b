"""pl.kernel out_type built from a frozen config's num_outputs=2; the kernel takes 1 input and 2 outputs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

@dataclasses.dataclass(frozen=True)
class Config:
    num_outputs: int = 2
    block: int = 8


def fan_out(x, config: Config = Config()):
    out_type = tuple(jax.ShapeDtypeStruct(x.shape, x.dtype) for _ in range(config.num_outputs))

    @pl.kernel(out_type=out_type, mesh=mesh, interpret=pltpu.InterpretParams())
    def fan_kernel(x_hbm, a_hbm, b_hbm):
        pltpu.sync_copy(x_hbm, a_hbm)
        pltpu.sync_copy(x_hbm, b_hbm)

    return fan_kernel(x)


outs = fan_out(x, Config(num_outputs=2))
print(sum(o.sum() for o in outs))
