IMPLS = {}
