"""plugins/__init__ imports its submodules with importlib in a loop; they register; main runs REGISTRY['copy'].  JAX: runs."""
from jax.experimental import pallas as pl
import plugins
from plugins import kernels

print(pl.pallas_call(plugins.REGISTRY['copy'], out_shape=kernels.S, interpret=True)(kernels.x).sum())
