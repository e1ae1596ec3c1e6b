REG = []


def register(priority):
    def add(fn):
        REG.append((priority, fn))
        return fn

    return add
