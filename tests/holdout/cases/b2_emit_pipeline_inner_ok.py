"""Tokamax-style: a pl.kernel body runs `pltpu.emit_pipeline` over an inner closure; the inner body
stores and returns nothing, its `pl.when` body and the index-map lambda are the only returns.
Traced under jax_use_emit_pipeline_primitive (which checks the body's return; running a pipeline
on the CPU interpreter needs TPU info it lacks).  JAX: traces (jax.eval_shape) without error."""
import jax
import jax.numpy as jnp
from jax._src import config
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scaled_copy(x):
    block = pl.BlockSpec((8, 128), lambda i: (i, 0))

    @pl.kernel(
        out_type=jax.ShapeDtypeStruct(x.shape, x.dtype),
        mesh=pltpu.create_tensorcore_mesh("core", num_cores=1),
        interpret=pltpu.InterpretParams(),
    )
    def outer(x_hbm_ref, o_hbm_ref):
        def inner(x_ref, o_ref):
            o_ref[...] = x_ref[...] * 2.0

            @pl.when(pl.program_id(0) == 0)
            def _():
                o_ref[...] += 1.0
                return

        pltpu.emit_pipeline(inner, grid=(x.shape[0] // 8,), in_specs=[block], out_specs=[block])(x_hbm_ref, o_hbm_ref)

    return outer(x)


with config.use_emit_pipeline_primitive(True):
    print(jax.eval_shape(scaled_copy, jnp.ones((16, 128), jnp.float32)))
