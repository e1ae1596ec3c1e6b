"""The holdout corpus (tests/holdout/cases): cases written the way real Pallas code passes
kernels and Refs, each verified under real JAX.

- jax tier: every case does under JAX what its `# expect:` markers claim (tests/holdout/verify_under_jax.py).
- fast tier: pallas-ls reports exactly the marked (file, code, line) set on each case.  Cases listed
  in tests/holdout/known_misses.txt are xfail(strict=True): fixing one forces its removal there.
"""

from __future__ import annotations

import importlib.util
import io
import os
import pathlib
import shutil
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
    """The cases tests/holdout/verified_under_jax.json does not vouch for under the JAX installed
    (new or edited cases, another JAX): each does under JAX what its markers claim.
    PALLAS_LS_HOLDOUT_ALL=1 runs every case (about 3 minutes of two CPUs)."""
    if importlib.util.find_spec("jax") is None:
        pytest.skip("jax is not installed")
    out = io.StringIO()
    every = os.environ.get("PALLAS_LS_HOLDOUT_ALL") == "1"
    outcomes = verify_under_jax.verify(jobs=2, out=out, changed_only=not every)
    bad = [o for o in outcomes if not o.ok]
    assert not bad, out.getvalue()


def test_the_record_vouches_only_for_unchanged_cases_under_the_same_jax(tmp_path, monkeypatch):
    cases_dir = tmp_path / "cases"
    cases_dir.mkdir()
    for case in [c for c in CASES if c.program.parent == verify_under_jax.CASES_DIR][:3]:
        shutil.copy(case.program, cases_dir / case.program.name)
    monkeypatch.setattr(verify_under_jax, "CASES_DIR", cases_dir)
    monkeypatch.setattr(verify_under_jax, "VERIFIED_FILE", tmp_path / "verified.json")
    cases = verify_under_jax.discover(cases_dir)
    assert verify_under_jax.unverified(cases) == cases  # nothing recorded yet
    ran = [verify_under_jax.Outcome(c, 0, "", 0.0, ok, "") for c, ok in zip(cases, (True, True, False), strict=True)]
    verify_under_jax.record(ran)
    assert verify_under_jax.unverified(cases) == [cases[2]]  # a failed verification vouches for nothing
    cases[0].program.write_text(cases[0].program.read_text() + "# edited\n")
    assert verify_under_jax.unverified(cases) == [cases[0], cases[2]]
    monkeypatch.setattr(verify_under_jax, "verdict_basis", lambda: {"jax": "another version"})
    assert verify_under_jax.unverified(cases) == cases
