def dispatch(name):
    return dispatch.table[name]


dispatch.table = {}
