MODE = 'copy'
