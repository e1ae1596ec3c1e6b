from consts import SCALE


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * SCALE  # expect: PAL003
