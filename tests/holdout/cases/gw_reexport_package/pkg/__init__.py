from .registry import register
