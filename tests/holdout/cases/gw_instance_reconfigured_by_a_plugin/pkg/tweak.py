from .ops import OP

OP.configure("bump")
