from .impl import copy as kernel, S, x, pl
