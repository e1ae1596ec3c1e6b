"""Tokamax-style `@pl.kernel(out_type=[...], mesh=..., scratch_types=(...))` decorator with a list
out_type of two outputs and one VMEM scratch; the body forgot the scratch parameter.
JAX: TypeError "copy2_kernel() takes 3 positional arguments but 4 were given"."""
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
    def copy2_kernel(x_hbm_ref, a_hbm_ref, b_hbm_ref):  # expect: PAL004
        pltpu.sync_copy(x_hbm_ref, a_hbm_ref)
        pltpu.sync_copy(x_hbm_ref, b_hbm_ref)

    return copy2_kernel(x)


a, b = copy_twice(jnp.ones((8, 128), jnp.float32))
print(a.sum() + b.sum())
