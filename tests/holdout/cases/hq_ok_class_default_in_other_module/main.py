"""a base class in one module, the subclass picks in another  JAX: runs."""
from pkg.kernels import x, S
from pkg.fast import FastOp

print(FastOp().run(x, S).sum())
