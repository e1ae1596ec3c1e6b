from .kernels import copy


class Op:
    kernel = staticmethod(copy)

    def run(self, x, S):
        import jax.experimental.pallas as pl
        return pl.pallas_call(self.kernel, out_shape=S, interpret=True)(x)
