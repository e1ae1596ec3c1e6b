from .settings import SETTINGS

SETTINGS.fast = True
