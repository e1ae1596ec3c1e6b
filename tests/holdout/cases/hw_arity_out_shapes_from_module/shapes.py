import jax


def out_shapes(x):
    s = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return (s,) * 2
