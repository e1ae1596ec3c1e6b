DEFAULT_IMPL = 'bump'
