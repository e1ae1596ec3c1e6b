"""`python -m pallas_ls.lsp [--stdio | --tcp --host H --port P] [--log-file F] [--log-level L]`."""

from __future__ import annotations

import argparse
import os
import sys

# `python -m` puts the working directory first on sys.path, and an editor starts the server in the
# user's workspace: its modules (an `lsprotocol.py`, a `json.py`...) must not shadow ours and run.
if sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from .server import add_arguments, main  # noqa: E402


def run(argv: list[str] | None = None) -> int:
    parser = add_arguments(
        argparse.ArgumentParser(prog="python -m pallas_ls.lsp", description="The pallas-ls language server")
    )
    return main(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(run())
