import enum


class Impl(enum.Enum):
    FAST = "fast"
    SAFE = "safe"
