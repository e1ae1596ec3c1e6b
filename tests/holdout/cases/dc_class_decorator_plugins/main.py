"""plugins registers classes into core.PLUGINS by a class decorator; main runs core.get('fast').  JAX: ValueError "should return None"."""
import core
import plugins  # noqa: F401  (registers)

print(core.get('fast')().run(core.x).sum())
