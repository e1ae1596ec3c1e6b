#!/usr/bin/env python3
"""Write docs/rules/<CODE>.md (and an index) from the rule registry.

    python scripts/gen_rule_docs.py          # regenerate
    python scripts/gen_rule_docs.py --check  # exit 1 if the docs are stale (used by the tests)

Each finding's `url` points at one of these files, so they are generated, never edited by hand.
"""

from __future__ import annotations

import argparse
import os
import sys

from pallas_ls.output.ruledoc import all_rule_docs

DOCS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "rules")


def stale_files(docs_dir: str = DOCS_DIR) -> list[str]:
    """Files that are missing, differ from the registry, or belong to no rule."""
    expected = all_rule_docs()
    present = {name for name in os.listdir(docs_dir) if name.endswith(".md")} if os.path.isdir(docs_dir) else set()
    stale = [name for name in sorted(present - set(expected))]
    for name, content in sorted(expected.items()):
        path = os.path.join(docs_dir, name)
        if not os.path.isfile(path) or _read(path) != content:
            stale.append(name)
    return stale


def _read(path: str) -> str:
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def write_docs(docs_dir: str = DOCS_DIR) -> list[str]:
    os.makedirs(docs_dir, exist_ok=True)
    expected = all_rule_docs()
    for name in os.listdir(docs_dir):
        if name.endswith(".md") and name not in expected:
            os.remove(os.path.join(docs_dir, name))  # a rule that no longer exists
    for name, content in expected.items():
        with open(os.path.join(docs_dir, name), "w", encoding="utf-8", newline="\n") as handle:
            handle.write(content)
    return sorted(expected)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files; exit 1 if any")
    parser.add_argument("--docs-dir", default=DOCS_DIR)
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(args.docs_dir)
        for name in stale:
            print(f"stale: {os.path.join(args.docs_dir, name)}", file=sys.stderr)
        if stale:
            print("run `python scripts/gen_rule_docs.py` to regenerate", file=sys.stderr)
        return 1 if stale else 0
    for name in write_docs(args.docs_dir):
        print(f"wrote {os.path.join(args.docs_dir, name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
