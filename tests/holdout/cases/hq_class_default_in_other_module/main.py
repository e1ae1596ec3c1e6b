"""a base class in one module, the subclass picks in another  JAX: ValueError "should return None"."""
from pkg.kernels import x, S
from pkg.fast import FastOp

print(FastOp().run(x, S).sum())
