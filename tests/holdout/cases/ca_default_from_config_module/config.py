MODE = 'bump'
