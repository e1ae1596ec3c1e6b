class Kernel:
    def __call__(self, x_ref, o_ref):
        return x_ref[...] + 1
