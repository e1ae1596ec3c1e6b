"""pkg/sub/run.py reads KS from ..common via a relative import; NAME = 'copy'.  JAX: runs."""
from pkg.sub import run

print(run.go().sum())
