"""`run_elementwise(kernel, x)` comes from an installed package, `teamkernels` (editable: a
`.pth` line in the environment's site-packages, `_env/`), and hands its kernel to the Pallas
launch; this file never names Pallas in lower case, so only the import leads to it.
JAX: ValueError "... should return None"."""
import os
import site

site.addsitedir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "_env", "site-packages"))

import jax.numpy as jnp  # noqa: E402

from teamkernels import run_elementwise  # noqa: E402


def cube_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] ** 3
    return x_ref[...] ** 3  # expect: PAL001


print(run_elementwise(cube_kernel, jnp.ones((16, 128), jnp.float32)).sum())
