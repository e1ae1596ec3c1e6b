IMPL = 'copy'
BLOCK = 128
