"""`PrefetchScalarGridSpec(num_scalar_prefetch=len(scalar_prefetches), ...)` as sglang-jax and
tpu-inference write it: two scalar-prefetch arrays, one input, one output, so the kernel gets four
refs; this one takes a fifth (a scratch the launch never allocates).  JAX: TypeError (missing a
positional argument)."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def _gather_kernel(starts_ref, lens_ref, x_ref, o_ref, acc_ref):
    o_ref[...] = x_ref[...] + starts_ref[0] + lens_ref[0]


def gather(x, starts, lens):
    scalar_prefetches = (starts, lens)
    in_specs = [pl.BlockSpec((8, 128), lambda i, *_: (i, 0))]
    out_specs = pl.BlockSpec((8, 128), lambda i, *_: (i, 0))
    return pl.pallas_call(
        _gather_kernel,  # expect: PAL004
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=len(scalar_prefetches),
            in_specs=in_specs,
            out_specs=out_specs,
            grid=(x.shape[0] // 8,),
        ),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        interpret=True,
    )(*scalar_prefetches, x)


print(gather(jnp.ones((16, 128), jnp.float32), jnp.zeros((2,), jnp.int32), jnp.ones((2,), jnp.int32)).sum())
