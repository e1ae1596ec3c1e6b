import dataclasses


@dataclasses.dataclass(frozen=True)
class Config:
    fused: bool = True
    block: int = 128
