class Settings:
    fast = False


SETTINGS = Settings()
