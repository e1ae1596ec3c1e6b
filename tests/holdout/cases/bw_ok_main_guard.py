"""A launcher run('copy'), then a main() under the __main__ guard with 'copy'.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
import sys
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1

KS = {"copy": copy, "bump": bump}

def run(name):
    return pl.pallas_call(KS[name], out_shape=S, interpret=True)(x)

run("copy")
def main():
    run('copy')

if __name__ == "__main__":
    main()
