from .activations import *
from .norms import *
