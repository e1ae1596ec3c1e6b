"""pkg.ops reads pkg.config through relative imports  JAX: ValueError "should return None"."""
from pkg import ops

print(ops.run().sum())
