"""scratch_shapes = [VMEM] + [SemaphoreType.DMA] * 1; the kernel takes one VMEM and two semaphores.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref, buf, sem_a, sem_b):
    buf[...] = x_ref[...]
    o_ref[...] = buf[...]


scratch = [pltpu.VMEM((8, 128), jnp.float32)] + [pltpu.SemaphoreType.DMA] * 1
print(pl.pallas_call(kernel, out_shape=S, scratch_shapes=scratch, interpret=True)(x).sum())  # expect: PAL004
