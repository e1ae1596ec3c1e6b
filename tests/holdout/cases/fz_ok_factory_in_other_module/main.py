"""a launcher factory in pkg.ops, called from main  JAX: runs."""
from pkg import ops
from pkg.kernels import x

print(ops.make('copy')(x).sum())
