from lib import config
from lib.kernels import copy, bump

KERNEL = bump if config.FAST else copy
