"""pkg.ops reads pkg.config through relative imports  JAX: runs."""
from pkg import ops

print(ops.run().sum())
