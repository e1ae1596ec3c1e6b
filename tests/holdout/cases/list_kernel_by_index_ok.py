"""A list mixing a kernel and a plain reference helper that returns a value; only the kernel
(`IMPLS[0]`) is launched, the helper `IMPLS[1]` is called eagerly.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _pallas_impl(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def _reference_impl(x):
    return x * 2


IMPLS = [_pallas_impl, _reference_impl]
x = jnp.ones((8, 128), jnp.float32)
got = pl.pallas_call(IMPLS[0], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
want = IMPLS[1](x)
assert (got == want).all()
