DEFAULT_IMPL = 'copy'
