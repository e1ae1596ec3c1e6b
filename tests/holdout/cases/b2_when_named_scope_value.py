"""Tokamax-style stacked decorators: `@pl.when(k == last)` over `@jax.named_scope(...)`; the
finalize body returns the normalized block (named_scope passes the value through).
JAX: TypeError "cond branch outputs must have the same pytree structure"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def mean_kernel(x_ref, o_ref, acc_ref):
    k = pl.program_id(0)

    @pl.when(k == 0)
    @jax.named_scope("init_acc")
    def _init():
        acc_ref[...] = jnp.zeros_like(acc_ref)

    acc_ref[...] += x_ref[...]

    @pl.when(k == pl.num_programs(0) - 1)
    @jax.named_scope("finalize")
    def _finalize():
        o_ref[...] = acc_ref[...] / pl.num_programs(0)
        return o_ref[...]  # expect: PAL007


x = jnp.ones((32, 128), jnp.float32)
out = pl.pallas_call(
    mean_kernel,
    grid=(4,),
    in_specs=[pl.BlockSpec((8, 128), lambda k: (k, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda k: (0, 0)),
    out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),
    scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)],
    interpret=True,
)(x)
print(out.sum())
