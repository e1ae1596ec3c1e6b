"""The pallas-ls language server: a thin pygls adapter over the engine (see server.py)."""
