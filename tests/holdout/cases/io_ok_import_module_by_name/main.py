"""importlib.import_module of a computed module name  JAX: runs."""
import importlib

mod = importlib.import_module('pkg.' + 'kernels')
print(mod.pl.pallas_call(mod.copy, out_shape=mod.S, interpret=True)(mod.x).sum())
