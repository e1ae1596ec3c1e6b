from .kernels import *  # noqa: F401,F403
from .launch import *  # noqa: F401,F403
