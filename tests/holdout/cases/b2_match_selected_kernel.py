"""The activation kernel is selected with a `match` statement on a string setting; the gelu kernel
returns its result.  JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _relu_kernel(x_ref, o_ref):
    o_ref[...] = jnp.maximum(x_ref[...], 0.0)


def _gelu_kernel(x_ref, o_ref):
    return jax.nn.gelu(x_ref[...])  # expect: PAL001


def activation(x, kind="gelu"):
    match kind:
        case "relu":
            kernel = _relu_kernel
        case "gelu" | "gelu_tanh":
            kernel = _gelu_kernel
        case _:
            raise ValueError(kind)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


print(activation(jnp.ones((8, 128), jnp.float32)).sum())
