"""A test-base-class `self.pallas_call` helper defined in another module (jax's tests style),
with the kernel a closure inside the test method.  JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp

from tests_lib.base import PallasBaseTest


class OpsTest(PallasBaseTest):
    def test_add_one(self):
        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] + 1
            return o_ref[...] - 1  # expect: PAL001

        x = jnp.zeros((8, 128), jnp.float32)
        out = self.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
        assert (out == 1).all()


OpsTest().test_add_one()
