import dataclasses


@dataclasses.dataclass(frozen=True)
class Config:
    fused: bool = False
    block: int = 128
