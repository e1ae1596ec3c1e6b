"""a layer class from pkg.layers, constructed in main  JAX: ValueError "should return None"."""
from pkg.layers import Layer
from pkg.kernels import x

print(Layer('bump')(x).sum())
