"""importlib.import_module(f'impls.{NAME}') with NAME = 'copy'; its kernel launched.  JAX: runs."""
import importlib
from jax.experimental import pallas as pl
import common

NAME = 'copy'
impl = importlib.import_module(f"impls.{NAME}")
print(pl.pallas_call(impl.kernel, out_shape=common.S, interpret=True)(common.x).sum())
