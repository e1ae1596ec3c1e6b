"""an enum from pkg.modes selects the kernel in pkg.ops  JAX: runs."""
from pkg import ops
from pkg.kernels import x
from pkg.modes import Mode

print(ops.run(x, Mode.COPY).sum())
