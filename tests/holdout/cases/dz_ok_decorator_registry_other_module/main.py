"""registry.register(name) decorates in kernels.py; ops.py launches registry.get('copy').  JAX: runs."""
import ops

print(ops.run().sum())
