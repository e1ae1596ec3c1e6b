"""The backward pass of a custom_vjp launches the kernel.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def launch(kernel, v):
    return pl.pallas_call(kernel, out_shape=S, interpret=True)(v)

@jax.custom_vjp
def op(v):
    return launch(copy, v)

def op_fwd(v):
    return op(v), None

def op_bwd(res, g):
    return (launch(bump, g),)

op.defvjp(op_fwd, op_bwd)
print(jax.grad(lambda v: op(v).sum())(x).sum())
