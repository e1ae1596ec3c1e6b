from ..common import finish


def kernel(x_ref, o_ref):
    return finish(x_ref, o_ref)  # expect: PAL001
