"""Pallas kernels, some correct and two with bugs that pallas-ls reports before JAX does.

    pallas-ls check examples/

reports:
  * PAL001 in `softmax_kernel`: it returns its result instead of writing it into `o_ref`;
  * PAL002 in `double_in_place`: one Ref is passed twice to a `pl.kernel` call.

Everything else here is correct and must stay silent.  Run the correct kernels on the CPU with
`python examples/demo/kernels.py` (interpret mode; no accelerator needed).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

INTERPRET = True  # run on the CPU; set False on a TPU


# --------------------------------------------------------------------- correct: pallas_call
def add_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


def add(x: jax.Array, y: jax.Array) -> jax.Array:
    return pl.pallas_call(add_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=INTERPRET)(x, y)


def scale_kernel(x_ref, o_ref, *, factor: float):
    # An early bare `return` is fine: the kernel still returns None.
    if factor == 1.0:
        o_ref[...] = x_ref[...]
        return
    o_ref[...] = x_ref[...] * factor


def scale(x: jax.Array, factor: float) -> jax.Array:
    kernel = functools.partial(scale_kernel, factor=factor)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=INTERPRET)(x)


def matmul(x: jax.Array, y: jax.Array, block: int = 128) -> jax.Array:
    m, k = x.shape
    _, n = y.shape

    # A blocked matmul: each grid step accumulates one (block, block) tile of the output.
    @functools.partial(
        pl.pallas_call,
        out_shape=jax.ShapeDtypeStruct((m, n), x.dtype),
        grid=(m // block, n // block, k // block),
        in_specs=[
            pl.BlockSpec((block, block), lambda i, j, s: (i, s)),  # index maps return tuples: fine
            pl.BlockSpec((block, block), lambda i, j, s: (s, j)),
        ],
        out_specs=pl.BlockSpec((block, block), lambda i, j, s: (i, j)),
        interpret=INTERPRET,
    )
    def matmul_kernel(x_ref, y_ref, o_ref):
        @pl.when(pl.program_id(2) == 0)
        def _init():
            o_ref[...] = jnp.zeros_like(o_ref)

        o_ref[...] += x_ref[...] @ y_ref[...]

    return matmul_kernel(x, y)


# ------------------------------------------------------------------------ bug: PAL001
def softmax_kernel(x_ref, o_ref):
    x = x_ref[...]
    e = jnp.exp(x - x.max(axis=-1, keepdims=True))
    # Bug: a kernel's result must be written into its output ref; JAX fails at trace time with
    # "The kernel function in the pallas_call softmax_kernel ... should return None".
    return e / e.sum(axis=-1, keepdims=True)


def softmax(x: jax.Array) -> jax.Array:
    return pl.pallas_call(softmax_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=INTERPRET)(x)


# ---------------------------------------------------------------------- pl.kernel on a mesh
def _mesh():
    return pltpu.create_tensorcore_mesh("x", num_cores=1)


def copy(x: jax.Array) -> jax.Array:
    """Correct: two distinct refs, one read and one written."""

    @pl.kernel(mesh=_mesh(), interpret=pltpu.InterpretParams() if INTERPRET else False)
    def copy_kernel(src_ref, dst_ref):
        pltpu.sync_copy(src_ref, dst_ref)

    src, dst = jax.new_ref(x), jax.new_ref(jnp.zeros_like(x))
    copy_kernel(src, dst)
    return jax.freeze(dst)


def double_in_place(x: jax.Array) -> jax.Array:
    @pl.kernel(mesh=_mesh(), interpret=pltpu.InterpretParams() if INTERPRET else False)
    def double_kernel(src_ref, dst_ref):
        def body(scratch_ref):
            pltpu.sync_copy(src_ref, scratch_ref)
            scratch_ref[...] = scratch_ref[...] * 2
            pltpu.sync_copy(scratch_ref, dst_ref)

        pl.run_scoped(body, pltpu.VMEM(x.shape, x.dtype))

    buf = jax.new_ref(x)
    # Bug: one Ref passed as both arguments; JAX fails with
    # "Cannot pass the same ref into a mpmd map multiple times".
    double_kernel(buf, buf)
    return jax.freeze(buf)


def main() -> None:
    x = jnp.arange(256 * 256, dtype=jnp.float32).reshape(256, 256) / 1000
    assert jnp.allclose(add(x, x), 2 * x)
    assert jnp.allclose(scale(x, 3.0), 3 * x)
    assert jnp.allclose(matmul(x, x), x @ x, rtol=1e-3)
    assert jnp.allclose(copy(x[:8, :128]), x[:8, :128])
    print("the correct kernels ran")


if __name__ == "__main__":
    main()
