"""pkg.ops binds the mode with functools.partial; main calls it  JAX: runs."""
from pkg import ops
from pkg.kernels import x

print(ops.run(x).sum())
