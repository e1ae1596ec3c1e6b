"""getattr on a module by a name from its __all__  JAX: runs."""
import pkg.kernels as K

print(K.pl.pallas_call(getattr(K, K.__all__[0]), out_shape=K.S, interpret=True)(K.x).sum())
