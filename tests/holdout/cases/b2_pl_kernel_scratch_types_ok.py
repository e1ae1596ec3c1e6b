"""Tokamax-style `@pl.kernel(out_type=[...], mesh=..., scratch_types=(...))` decorator with a list
out_type of two outputs and one VMEM scratch, staged through the scratch with sync_copy.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy_twice(x):
    out_type = [
        jax.ShapeDtypeStruct(x.shape, x.dtype),
        jax.ShapeDtypeStruct(x.shape, x.dtype),
    ]

    @pl.kernel(
        out_type=out_type,
        mesh=pltpu.create_tensorcore_mesh("core", num_cores=1),
        scratch_types=(pltpu.VMEM(x.shape, x.dtype),),
        interpret=pltpu.InterpretParams(),
    )
    def copy2_kernel(x_hbm_ref, a_hbm_ref, b_hbm_ref, tmp_vmem_ref):
        pltpu.sync_copy(x_hbm_ref, tmp_vmem_ref)
        tmp_vmem_ref[...] = tmp_vmem_ref[...] * 2.0
        pltpu.sync_copy(tmp_vmem_ref, a_hbm_ref)
        pltpu.sync_copy(tmp_vmem_ref, b_hbm_ref)

    return copy2_kernel(x)


a, b = copy_twice(jnp.ones((8, 128), jnp.float32))
assert float(a.sum() + b.sum()) == 4.0 * 8 * 128
