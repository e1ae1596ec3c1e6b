from . import plugin_a, plugin_b
