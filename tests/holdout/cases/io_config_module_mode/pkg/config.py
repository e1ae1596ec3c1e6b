MODE = 'fast'
