from .impl import bump as kernel, S, x, pl
