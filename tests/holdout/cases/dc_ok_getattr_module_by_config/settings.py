NAME = 'copy'
