def make(scale):
    def kernel(x_ref, o_ref):
        if scale == 1:
            o_ref[...] = x_ref[...]
        else:
            return x_ref[...] * scale
    return kernel
