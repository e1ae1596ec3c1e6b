"""Plugins registered by name in a loop over (name, fn) pairs; main runs PLUGINS['bump'].  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001


KS = {"copy": copy, "bump": bump}


PLUGINS = {}


def register(name):
    def deco(fn):
        PLUGINS[name] = fn
        return fn

    return deco


for _name, _fn in (("copy", copy), ("bump", bump)):
    register(_name)(_fn)


def run(name, v):
    return pl.pallas_call(PLUGINS[name], out_shape=S, interpret=True)(v)


print(run('bump', x).sum())
