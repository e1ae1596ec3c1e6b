"""main calls lib.launch(lib.KERNELS['copy'], x).  JAX: runs."""
import lib

print(lib.launch(lib.KERNELS['copy'], lib.x).sum())
