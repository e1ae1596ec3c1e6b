import jax
import jax.numpy as jnp

from .registry import register


@register("silu")
def silu_kernel(x_ref, o_ref):
    x = x_ref[...]
    o_ref[...] = x * jax.nn.sigmoid(x)


@register("softplus")
def softplus_kernel(x_ref, o_ref):
    y = jnp.logaddexp(x_ref[...], 0.0)
    return y  # expect: PAL001
