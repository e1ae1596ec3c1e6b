"""A test class's helper returns `functools.partial(pl.kernel, ..., **kwargs)` and each test launches
with `@self.kernel(out_type=..., mesh=...)`, as jax's tests/pallas/tpu_sparsecore_pallas_test.py does.
The outputs come through the `**kwargs` splat: one input and one output ref.  Valid."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


class KernelTest:
    def kernel(self, interpret=pltpu.InterpretParams(), **kwargs):
        return functools.partial(pl.kernel, interpret=interpret, **kwargs)

    def test_copy(self):
        x = jnp.ones((8, 128), jnp.float32)

        @self.kernel(
            out_type=jax.ShapeDtypeStruct(x.shape, x.dtype),
            mesh=pltpu.create_tensorcore_mesh("core", num_cores=1),
        )
        def copy(x_ref, o_ref):
            pltpu.sync_copy(x_ref, o_ref)

        return copy(x)

    def test_two_outputs(self):
        x = jnp.ones((8, 128), jnp.float32)
        out = jax.ShapeDtypeStruct(x.shape, x.dtype)

        @self.kernel(out_type=(out, out), mesh=pltpu.create_tensorcore_mesh("core", num_cores=1))
        def split(x_ref, a_ref, b_ref):
            pltpu.sync_copy(x_ref, a_ref)
            pltpu.sync_copy(x_ref, b_ref)

        return split(x)


t = KernelTest()
print(t.test_copy().sum(), sum(o.sum() for o in t.test_two_outputs()))
