import jax.numpy as jnp

from .registry import register


@register("double")
def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


@register("square")
def square(x_ref, o_ref):
    return x_ref[...] * x_ref[...]  # expect: PAL001
