from .public import *  # noqa: F403
