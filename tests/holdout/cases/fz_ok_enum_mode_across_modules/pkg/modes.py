import enum


class Mode(enum.Enum):
    COPY = 'copy'
    BUMP = 'bump'
