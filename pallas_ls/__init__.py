"""pallas-ls: catches JAX Pallas kernel bugs while you type."""

__version__ = "0.1.0"
