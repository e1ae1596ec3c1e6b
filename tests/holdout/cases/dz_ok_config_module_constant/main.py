"""settings.IMPL = 'copy'; ops.py launches kernels.KS[settings.IMPL].  JAX: runs."""
import ops

print(ops.run().sum())
