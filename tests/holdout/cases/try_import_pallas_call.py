"""`try: from jax.experimental.pallas import pallas_call` / `except ImportError: def pallas_call(...)`.
JAX: ValueError "... should return None" (the import succeeds)."""
import jax
import jax.numpy as jnp

try:
    from jax.experimental.pallas import pallas_call
except ImportError:  # pragma: no cover - only without pallas

    def pallas_call(*args, **kwargs):
        raise RuntimeError("Pallas is not available in this JAX build")


def exp_kernel(x_ref, o_ref):
    o_ref[...] = jnp.exp(x_ref[...])
    return o_ref[...]  # expect: PAL001


x = jnp.zeros((8, 128), jnp.float32)
print(pallas_call(exp_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())
