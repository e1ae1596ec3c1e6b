def body(x_ref, o_ref, *, fused):
    if fused:
        return x_ref[...] + 1  # expect: PAL001
    o_ref[...] = x_ref[...]
