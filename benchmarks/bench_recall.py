"""Recall of pallas-ls on the holdout corpus (tests/holdout/cases, each case verified under JAX).

    python benchmarks/bench_recall.py [--json] [--cases]

Per rule and overall: expected findings (the `# expect:` markers), found (a finding of that code
on that file and line), missed, false findings (findings on a line without a marker for their
code), and the number of VALID cases that get any finding.  Never imports jax.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "holdout"))

import harness  # noqa: E402


def measure() -> dict:
    cases = harness.discover()
    per_rule: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    rows = []
    start = time.perf_counter()
    for case in cases:
        expected, found = harness.expected_markers(case), harness.lint_case(case)
        hits, missed, false = expected & found, expected - found, found - expected
        for bucket, markers in (("expected", expected), ("found", hits), ("missed", missed), ("false", false)):
            for _, code, _ in markers:
                per_rule[code][bucket] += 1
        rows.append(
            {
                "case": case.name,
                "valid": case.valid,
                "expected": len(expected),
                "found": len(hits),
                "missed": sorted(missed),
                "false": sorted(false),
            }
        )
    seconds = time.perf_counter() - start
    total = collections.Counter()
    for counter in per_rule.values():
        total.update(counter)
    return {
        "cases": len(cases),
        "valid_cases": sum(c.valid for c in cases),
        "valid_cases_with_findings": sum(1 for r in rows if r["valid"] and r["false"]),
        "perfect_cases": sum(1 for r in rows if not r["missed"] and not r["false"]),
        "per_rule": {code: dict(per_rule[code]) for code in sorted(per_rule)},
        "overall": dict(total),
        "seconds": round(seconds, 2),
        "rows": rows,
    }


def _line(name: str, c: dict) -> str:
    exp, hit = c.get("expected", 0), c.get("found", 0)
    recall = f"{100 * hit / exp:5.1f}%" if exp else "    -"
    return f"{name:<8} {exp:>8} {hit:>6} {c.get('missed', 0):>7} {c.get('false', 0):>6}  {recall}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--cases", action="store_true", help="also list every case that is not perfect")
    args = parser.parse_args(argv)
    result = measure()
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"holdout corpus: {result['cases']} cases ({result['valid_cases']} valid), checked in {result['seconds']} s")
    print(f"{'rule':<8} {'expected':>8} {'found':>6} {'missed':>7} {'false':>6}  recall")
    for code, counter in result["per_rule"].items():
        print(_line(code, counter))
    print(_line("overall", result["overall"]))
    print(f"valid cases with any finding: {result['valid_cases_with_findings']} of {result['valid_cases']}")
    print(f"cases exactly right: {result['perfect_cases']} of {result['cases']}")
    if args.cases:
        for row in result["rows"]:
            if row["missed"] or row["false"]:
                print(f"  {row['case']}: missed {row['missed']} false {row['false']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
