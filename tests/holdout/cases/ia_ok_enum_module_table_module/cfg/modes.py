import enum


class Mode(enum.Enum):
    SAFE = "safe"
    FAST = "fast"
