"""`pl.when(i == 0)(lambda: ...)` used as a one-liner init, but the lambda reads a ref instead of
storing (the result of `acc_ref[...]` is its value).
JAX: TypeError "cond branch outputs must have the same pytree structure"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def acc_kernel(x_ref, o_ref, acc_ref):
    i = pl.program_id(0)
    pl.when(i == 0)(lambda: acc_ref[...] * 0.0)  # expect: PAL007
    acc_ref[...] += x_ref[...]
    o_ref[...] = acc_ref[...]


out = pl.pallas_call(
    acc_kernel,
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (0, 0)),
    out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),
    scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)],
    interpret=True,
)(jnp.ones((16, 128), jnp.float32))
print(out.sum())
