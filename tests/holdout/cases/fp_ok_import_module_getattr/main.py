"""importlib.import_module then getattr by name  JAX: runs."""
import ops

print(ops.run("copy").sum())
