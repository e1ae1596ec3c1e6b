"""A dataclass's __post_init__ defaults dst to src (two Refs).  JAX: runs."""
import copy, functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def run(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

@dataclasses.dataclass
class Buffers:
    src: object
    dst: object = None

    def __post_init__(self):
        if self.dst is None:
            self.dst = self.src

b = Buffers(jax.new_ref(x), jax.new_ref(jnp.zeros_like(x)))
run(b.src, b.dst)
print(jax.freeze(b.dst).sum())
