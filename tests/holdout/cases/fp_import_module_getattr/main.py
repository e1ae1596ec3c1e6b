"""importlib.import_module then getattr by name  JAX: ValueError "should return None"."""
import ops

print(ops.run("bump").sum())
