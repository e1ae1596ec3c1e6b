from .impl import chosen as default_kernel
