import jax
import jax.numpy as jnp

ROWS, COLS = 8, 128
OUT = jax.ShapeDtypeStruct((ROWS, COLS), jnp.float32)
OUT_SHAPES = (OUT, OUT)
