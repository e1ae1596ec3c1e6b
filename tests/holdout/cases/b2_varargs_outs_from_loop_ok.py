"""tpu-inference style: the kernel takes `*out_refs` plus keyword-only settings bound with
functools.partial, and the out_shape list is grown in a loop whose length depends on a flag.
JAX: runs."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _rope_body(x_ref, cos_ref, *out_refs, quantize, out_dtype):
    y = x_ref[...] * cos_ref[...]
    if not quantize:
        out_refs[0][...] = y.astype(out_dtype)
        return
    q_ref, scale_ref = out_refs
    scale = jnp.max(jnp.abs(y), axis=-1, keepdims=True) / 127.0
    q_ref[...] = jnp.round(y / jnp.where(scale == 0, 1.0, scale)).astype(q_ref.dtype)
    scale_ref[...] = scale


def rope(x, cos, quantize):
    out_shape = []
    if quantize:
        for dtype, cols in ((jnp.int8, x.shape[1]), (jnp.float32, 1)):
            out_shape.append(jax.ShapeDtypeStruct((x.shape[0], cols), dtype))
    else:
        out_shape.append(jax.ShapeDtypeStruct(x.shape, x.dtype))
    kernel = functools.partial(_rope_body, quantize=quantize, out_dtype=x.dtype)
    return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x, cos)


x = jnp.ones((8, 128), jnp.float32)
print(rope(x, x, False)[0].sum(), rope(x, x, True)[1].sum())
