"""a config class attribute in pkg.config picks the kernel in pkg.ops  JAX: ValueError "should return None"."""
from pkg import ops
from pkg.kernels import x

print(ops.run(x).sum())
