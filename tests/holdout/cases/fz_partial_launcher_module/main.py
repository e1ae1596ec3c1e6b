"""pkg.ops binds the mode with functools.partial; main calls it  JAX: ValueError "should return None"."""
from pkg import ops
from pkg.kernels import x

print(ops.fast(x).sum())
