"""plugins registers classes into core.PLUGINS by a class decorator; main runs core.get('safe').  JAX: runs."""
import core
import plugins  # noqa: F401  (registers)

print(core.get('safe')().run(core.x).sum())
