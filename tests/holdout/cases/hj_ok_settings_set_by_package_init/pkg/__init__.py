from .settings import SETTINGS

SETTINGS.fast = False
