import dataclasses


@dataclasses.dataclass(frozen=True)
class Config:
    impl: str = "copy"
    block: int = 8
