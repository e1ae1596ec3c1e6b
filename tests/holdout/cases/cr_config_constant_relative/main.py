"""ops.run reads DEFAULT_IMPL = 'bump' from ops/config.py through a relative import.  JAX: ValueError "should return None"."""
import ops.run as r

print(r.run(r.x).sum())
