"""a config class attribute in pkg.config picks the kernel in pkg.ops  JAX: runs."""
from pkg import ops
from pkg.kernels import x

print(ops.run(x).sum())
