# expect: PAL102
"""q, k, v and the output in (4096, 640) bf16 blocks from a config: 4 x 2 x 5 MiB = 40 MiB."""
import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


@dataclasses.dataclass(frozen=True)
class BlockSizes:
    block_q: int = 4096
    head_dim: int = 640


def attend(q_ref, k_ref, v_ref, o_ref):
    o_ref[...] = q_ref[...] + k_ref[...] * v_ref[...]


def attention(q, k, v, sizes=BlockSizes()):
    spec = pl.BlockSpec((None, sizes.block_q, sizes.head_dim), lambda h, i: (h, i, 0))
    return pl.pallas_call(
        attend,
        grid=(q.shape[0], q.shape[1] // sizes.block_q),
        in_specs=[spec, spec, spec],
        out_specs=spec,
        out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel")),
    )(q, k, v)


q = jnp.ones((2, 4096, 640), jnp.bfloat16)
print(attention(q, q, q).sum())
