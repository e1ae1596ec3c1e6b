"""main patches a module attribute before launching through it  JAX: runs."""
import pkg.kernels as K

K.DEFAULT = K.copy
print(K.pl.pallas_call(K.DEFAULT, out_shape=K.S, interpret=True)(K.x).sum())
