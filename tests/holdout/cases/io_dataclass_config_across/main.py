"""a dataclass config of another module, built in main  JAX: ValueError "should return None"."""
from pkg.config import Config
from pkg.kernels import bump, copy, S, x, pl

cfg = Config(kernel=bump)
print(pl.pallas_call(cfg.kernel, out_shape=S, interpret=True)(x).sum())
