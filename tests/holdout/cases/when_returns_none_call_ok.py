"""`pl.when` bodies that `return helper(...)` where the helper returns None, and
`return jax.debug.print(...)`.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _zero(ref):
    ref[...] = jnp.zeros(ref.shape, ref.dtype)


def kernel(x_ref, o_ref):
    @pl.when(pl.program_id(0) == 0)
    def _():
        return _zero(o_ref)

    o_ref[...] += x_ref[...]

    @pl.when(pl.program_id(0) == 1)
    def _():
        return jax.debug.print("last step")


x = jnp.ones((16, 128), jnp.float32)
out = pl.pallas_call(
    kernel,
    out_shape=jax.ShapeDtypeStruct((8, 128), x.dtype),
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), lambda k: (k, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda k: (0, 0)),
    interpret=True,
)(x)
print(out.sum())
