from lib.registry import register


@register("copy")
class Copy:
    def __call__(self, x_ref, o_ref):
        o_ref[...] = x_ref[...]


@register("bump")
class Bump:
    def __call__(self, x_ref, o_ref):
        return x_ref[...] + 1
