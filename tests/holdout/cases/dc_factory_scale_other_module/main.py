"""factory.make(2) returns a kernel that returns a value unless scale == 1.  JAX: ValueError "should return None"."""
from jax.experimental import pallas as pl
import factory

print(pl.pallas_call(factory.make(2), out_shape=factory.S, interpret=True)(factory.x).sum())
