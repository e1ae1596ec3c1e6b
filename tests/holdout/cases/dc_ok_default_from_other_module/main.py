"""ops.run(v, kernel=defaults.KERNEL) with defaults.KERNEL = kernels.copy.  JAX: runs."""
import ops

print(ops.run(ops.kernels.x).sum())
