IMPL = 'bump'
BLOCK = 128
