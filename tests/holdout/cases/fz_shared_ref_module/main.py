"""one Ref made in pkg.bufs, passed twice from main  JAX: NotImplementedError (same ref)."""
import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from pkg import bufs

mesh = pltpu.create_tensorcore_mesh('core', num_cores=1)


@pl.kernel(out_type=(), mesh=mesh, interpret=pltpu.InterpretParams())
def copy_kernel(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


copy_kernel(bufs.SRC, bufs.ALIAS)  # expect: PAL002
print(bufs.x.sum())
