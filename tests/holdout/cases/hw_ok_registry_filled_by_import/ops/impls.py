from ops.registry import register


@register("plain")
def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


@register("fused")
def bump(x_ref, o_ref):
    return x_ref[...] + 1
