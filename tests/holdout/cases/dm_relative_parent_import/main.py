"""pkg/sub/run.py reads KS from ..common via a relative import; NAME = 'bump'.  JAX: ValueError "should return None"."""
from pkg.sub import run

print(run.go().sum())
