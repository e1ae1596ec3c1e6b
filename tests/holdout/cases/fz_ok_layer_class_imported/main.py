"""a layer class from pkg.layers, constructed in main  JAX: runs."""
from pkg.layers import Layer
from pkg.kernels import x

print(Layer('copy')(x).sum())
