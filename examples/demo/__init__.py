"""A small package of Pallas kernels for trying pallas-ls: `pallas-ls check examples/`."""
