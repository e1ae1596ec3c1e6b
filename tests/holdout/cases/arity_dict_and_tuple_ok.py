"""A dict `out_shape` is ONE parameter (a dict of refs) and a tuple input argument is ONE
parameter (a tuple of refs).  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(xy_refs, outs):
    x_ref, y_ref = xy_refs
    outs["sum"][...] = x_ref[...] + y_ref[...]
    outs["diff"][...] = x_ref[...] - y_ref[...]


x = jnp.ones((8, 128), jnp.float32)
s = jax.ShapeDtypeStruct(x.shape, x.dtype)
res = pl.pallas_call(kernel, out_shape={"sum": s, "diff": s}, interpret=True)((x, x))
print(res["sum"].sum(), res["diff"].sum())
