from . import ops

ops.OP.configure("bump")
