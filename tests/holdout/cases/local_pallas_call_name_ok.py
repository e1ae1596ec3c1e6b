"""A module's own `pallas_call` (a pure-jnp reference runner used by tests) is not an entry
point: the function it runs returns a value legitimately.  JAX: runs."""
import jax
import jax.numpy as jnp


def pallas_call(fn, out_shape):
    return lambda *args: fn(*args).astype(out_shape.dtype)


def reference_add(x, y):
    return x + y


x = jnp.ones((8, 128), jnp.float32)
print(pallas_call(reference_add, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x, x).sum())
