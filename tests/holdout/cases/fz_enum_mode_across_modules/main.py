"""an enum from pkg.modes selects the kernel in pkg.ops  JAX: ValueError "should return None"."""
from pkg import ops
from pkg.kernels import x
from pkg.modes import Mode

print(ops.run(x, Mode.BUMP).sum())
