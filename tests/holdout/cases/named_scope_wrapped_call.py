"""`jax.named_scope(name)(pl.pallas_call(functools.partial(kernel, ...), ...))`, then called
(tpu-inference style).  JAX: ValueError "... should return None"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _scores_kernel(q_ref, k_ref, o_ref, *, sm_scale):
    s = jnp.dot(q_ref[...], k_ref[...].T) * sm_scale
    o_ref[...] = s
    return s  # expect: PAL001


def scores(q, k):
    kernel = jax.named_scope("scores")(
        pl.pallas_call(
            functools.partial(_scores_kernel, sm_scale=q.shape[-1] ** -0.5),
            out_shape=jax.ShapeDtypeStruct((q.shape[0], k.shape[0]), jnp.float32),
            interpret=True,
        )
    )
    return kernel(q, k)


q = jnp.ones((8, 128), jnp.float32)
print(scores(q, q).sum())
