"""`self.pallas_call` test helper from another module, used as a decorator on a closure kernel
that returns None, plus an index-map lambda that returns a value.  JAX: runs."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from tests_lib.base import PallasBaseTest


class OpsTest(PallasBaseTest):
    def test_add_one(self):
        x = jnp.zeros((16, 128), jnp.float32)
        spec = pl.BlockSpec((8, 128), lambda i: (i, 0))

        @functools.partial(
            self.pallas_call, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(2,), in_specs=[spec], out_specs=spec
        )
        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] + 1

        assert (kernel(x) == 1).all()


OpsTest().test_add_one()
