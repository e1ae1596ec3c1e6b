def body(x_ref, o_ref, *, scale):
    o_ref[...] = x_ref[...] * scale
    if scale > 1:
        return o_ref[...]
