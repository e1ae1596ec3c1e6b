from . import plugin
