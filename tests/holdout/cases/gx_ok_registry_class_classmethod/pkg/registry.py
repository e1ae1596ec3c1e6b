class Registry:
    items = []

    @classmethod
    def add(cls, fn):
        cls.items.append(fn)
        return fn
