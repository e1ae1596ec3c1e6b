from base import Op


class Copy(Op, name="copy"):
    @staticmethod
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...]


class Bump(Op, name="bump"):
    @staticmethod
    def kernel(x_ref, o_ref):
        return x_ref[...] + 1
