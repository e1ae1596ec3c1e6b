"""The matmul accumulate/init idiom: a `@pl.when` body inside a helper, ending in a bare return.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _init_acc(acc_ref):
    @pl.when(pl.program_id(1) == 0)
    def _():
        acc_ref[...] = jnp.zeros_like(acc_ref)
        return


def kernel(x_ref, o_ref):
    _init_acc(o_ref)
    o_ref[...] += x_ref[...]


x = jnp.ones((16, 128), jnp.float32)
out = pl.pallas_call(
    kernel,
    out_shape=jax.ShapeDtypeStruct((8, 128), x.dtype),
    grid=(1, 2),
    in_specs=[pl.BlockSpec((8, 128), lambda i, k: (k, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i, k: (i, 0)),
    interpret=True,
)(x)
print(out.sum())
