"""The holdout corpus (tests/holdout/cases): cases written the way real Pallas code passes
kernels and Refs, each verified under real JAX.

- jax tier: every case does under JAX what its `# expect:` markers claim (tests/holdout/verify_under_jax.py).
- fast tier: pallas-ls reports exactly the marked (file, code, line) set on each case.  Cases listed
  in tests/holdout/known_misses.txt are xfail(strict=True): fixing one forces its removal there.
"""

from __future__ import annotations

import importlib.util
import io
import pathlib
import sys

import pytest

HOLDOUT = pathlib.Path(__file__).resolve().parent / "holdout"
sys.path.insert(0, str(HOLDOUT))

import harness  # noqa: E402
import verify_under_jax  # noqa: E402

CASES = harness.discover()
KNOWN_MISSES = harness.known_misses()


def test_corpus_is_well_formed():
    names = {case.name for case in CASES}
    assert len(CASES) >= 60
    assert not set(KNOWN_MISSES) - names, f"known_misses.txt names unknown cases: {set(KNOWN_MISSES) - names}"
    for case in CASES:
        text = case.program.read_text(encoding="utf-8")
        assert text.lstrip().startswith('"""'), f"{case.name}: no docstring"
        if case.name.endswith("_ok"):
            assert case.valid, f"{case.name} is named _ok but has expectations"


def _params():
    for case in CASES:
        marks = []
        if case.name in KNOWN_MISSES:
            marks.append(pytest.mark.xfail(reason=KNOWN_MISSES[case.name], strict=True))
        yield pytest.param(case, id=case.name, marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_pallas_ls_on_holdout_case(case):
    assert harness.lint_case(case) == harness.expected_markers(case)


@pytest.mark.jax
def test_holdout_cases_under_jax():
    if importlib.util.find_spec("jax") is None:
        pytest.skip("jax is not installed")
    out = io.StringIO()
    outcomes = verify_under_jax.verify(jobs=2, out=out)
    bad = [o for o in outcomes if not o.ok]
    assert not bad, out.getvalue()
