import dataclasses


@dataclasses.dataclass(frozen=True)
class Config:
    kernel_name: str = "bump"
    block: int = 128
