import os

import jax
import jax.numpy as jnp

if os.environ.get("USE_TANH_APPROX", "1") == "1":

    def gelu_kernel(x_ref, o_ref):
        x = x_ref[...]
        o_ref[...] = 0.5 * x * (1 + jnp.tanh(0.7978845608 * (x + 0.044715 * x**3)))

else:

    def gelu_kernel(x_ref, y_ref, o_ref):
        x = x_ref[...]
        o_ref[...] = 0.5 * x * (1 + jax.scipy.special.erf(x / 1.4142135)) + y_ref[...]
