"""main calls ops.configure('copy') then ops.run(x), which launches the global KERNEL.  JAX: runs."""
import ops

ops.configure('copy')
print(ops.run(ops.x).sum())
