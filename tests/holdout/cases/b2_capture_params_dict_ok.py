"""Notebook-style: model parameters live in a module-level dict of jax arrays; they are passed to
the pallas_call as inputs, and the kernel only reads a static shape from the dict.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

key = jax.random.PRNGKey(0)
PARAMS = {
    "scale": jnp.ones((1, 128), jnp.float32),
    "shift": jax.random.normal(key, (1, 128)),
}


def layer_norm_kernel(x_ref, scale_ref, shift_ref, o_ref):
    x = x_ref[...]
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
    width = PARAMS["scale"].shape[-1]
    o_ref[...] = (x - mu) * jax.lax.rsqrt(var + 1e-5) * scale_ref[...] + shift_ref[...] * (width / 128)


x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
run = pl.pallas_call(layer_norm_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)
print(run(x, PARAMS["scale"], PARAMS["shift"]).sum())
