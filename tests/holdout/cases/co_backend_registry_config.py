"""op(x, KernelConfig(fused=True)) through an abc backend registry and a frozen config.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001


KS = {"copy": copy, "bump": bump}


import abc


@dataclasses.dataclass(frozen=True)
class KernelConfig:
    block: int = 128
    fused: bool = False


class Backend(abc.ABC):
    @abc.abstractmethod
    def kernel(self, cfg):
        ...


class Pallas(Backend):
    def kernel(self, cfg):
        return bump if cfg.fused else copy


_BACKENDS = {"pallas": Pallas}


def get_backend(name="pallas"):
    return _BACKENDS[name]()


def op(v, cfg=KernelConfig()):
    k = get_backend().kernel(cfg)
    return pl.pallas_call(k, out_shape=S, interpret=True)(v)


print(op(x, KernelConfig(fused=True)).sum())
