"""A helper gathers a layer's refs into a dict (`{"k": k_ref, "v": v_ref}`) and a second call
uses the same refs again: one ref per call position, the same ref across separate calls.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def copy_kv(src, dst):
    pltpu.sync_copy(src["k"], dst["k"])
    pltpu.sync_copy(src["v"], dst["v"])


def make_cache(x):
    return {"k": jax.new_ref(x), "v": jax.new_ref(x * 2)}


x = jnp.ones((8, 128), jnp.float32)
cache = make_cache(x)
staging = make_cache(jnp.zeros_like(x))
copy_kv(cache, staging)
copy_kv(staging, cache)
print(jax.freeze(staging["v"]).sum())
