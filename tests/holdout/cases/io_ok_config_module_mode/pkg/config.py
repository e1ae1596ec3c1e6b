MODE = 'safe'
