import base


class Fancy(base.Op):
    kernel = staticmethod(base.copy)
