NAME = 'bump'
