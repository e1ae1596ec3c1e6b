class Defaults:
    impl = 'bump'
    block = 128
