class Defaults:
    impl = 'copy'
    block = 128
