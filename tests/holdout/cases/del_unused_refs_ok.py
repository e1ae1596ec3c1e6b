"""tpu-inference style: a kernel that `del`s its unused input/output refs and only fills scratch;
`run_scoped` whose body returns None is returned.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def poison_kernel(in_ref, out_ref, v_scratch):
    del in_ref
    v_scratch[...] = jnp.full_like(v_scratch, jnp.nan)

    def fill(tmp):
        tmp[...] = jnp.zeros(tmp.shape, tmp.dtype)
        out_ref[...] = tmp[...]

    return pl.run_scoped(fill, pltpu.VMEM((1, 128), jnp.float32))


out = pl.pallas_call(
    poison_kernel,
    out_shape=jax.ShapeDtypeStruct((1, 128), jnp.float32),
    grid=(1,),
    scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)],
    interpret=True,
)(jnp.zeros((1, 128), dtype=jnp.float32))
print(out.sum())
