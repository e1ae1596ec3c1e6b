from .registry import register


@register
def first(x_ref, o_ref):
    o_ref[...] = x_ref[...]


@register
def second(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001
