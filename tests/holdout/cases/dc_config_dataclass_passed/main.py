"""ops.run(Config(impl='bump'), x) reads a table keyed by cfg.impl.  JAX: ValueError "should return None"."""
import config
import ops

print(ops.run(config.Config(impl='bump'), ops.x).sum())
