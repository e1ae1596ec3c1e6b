def scaled_add(x_ref, y_ref, o_ref, *, scale):  # expect: PAL004
    o_ref[...] = (x_ref[...] + y_ref[...]) * scale
