from .impl import *
