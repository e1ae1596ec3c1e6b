"""ops.run reads DEFAULT_IMPL = 'copy' from ops/config.py through a relative import.  JAX: runs."""
import ops.run as r

print(r.run(r.x).sum())
