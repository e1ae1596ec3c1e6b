"""`python -m pallas_ls.lsp [--stdio | --tcp --host H --port P] [--log-file F] [--log-level L]`."""

from __future__ import annotations

import argparse
import sys

from .server import add_arguments, main


def run(argv: list[str] | None = None) -> int:
    parser = add_arguments(argparse.ArgumentParser(prog="python -m pallas_ls.lsp", description="The pallas-ls language server"))
    return main(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(run())
