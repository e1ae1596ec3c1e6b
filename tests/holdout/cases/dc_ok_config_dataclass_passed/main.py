"""ops.run(Config(impl='copy'), x) reads a table keyed by cfg.impl.  JAX: runs."""
import config
import ops

print(ops.run(config.Config(impl='copy'), ops.x).sum())
