"""main sets ops.KERNEL = ops.copy then calls ops.run(x).  JAX: runs."""
import ops

ops.KERNEL = ops.copy
print(ops.run(ops.x).sum())
