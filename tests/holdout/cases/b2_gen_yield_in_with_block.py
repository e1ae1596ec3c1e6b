"""A kernel that profiles its phases with `jax.named_scope` blocks and, in a debugging leftover,
`yield`s the partial result inside one of them: the def is a generator function.
JAX: TypeError "object of type 'NoneType' has no len()"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def two_phase_kernel(x_ref, o_ref, *, debug=False):  # expect: PAL005
    with jax.named_scope("phase1"):
        y = x_ref[...] * 2.0
        if debug:
            yield y
    with jax.named_scope("phase2"):
        o_ref[...] = y + 1.0


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(two_phase_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
