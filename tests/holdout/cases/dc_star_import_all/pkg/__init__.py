from .impl import *  # noqa: F403
