import functools
from lib.body import body

KERNEL = functools.partial(body, scale=1)
