"""TPU rules on programs written the way libraries, notebooks and tests write them (issue 37),
each compiled on a real TPU v5e to label it: `tests/tpu_cases/<rule>/*.py` carry `# expect:` with
the TPU rule the TPU's compiler proved right (or `clean`); `observed_tpu_v5e.json` is what the
TPU said (tests/tpu_cases/run_cases.py), `observed_interpret_cpu.json` what interpret mode said.

Here (no TPU needed) pallas-ls must report exactly the labelled rule on each case, and the labels
must agree with the TPU's record.  On a TPU, tests/test_tpu_examples.py compiles them again.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from pallas_ls.lint import Project, rules_for

CASES_DIR = pathlib.Path(__file__).with_name("tpu_cases")
CASES = sorted(CASES_DIR.glob("*/*.py"))
TPU = json.loads((CASES_DIR / "observed_tpu_v5e.json").read_text())
INTERPRET = json.loads((CASES_DIR / "observed_interpret_cpu.json").read_text())


def label(path: pathlib.Path) -> str:
    found = re.match(r"# expect: (\S+)", path.read_text())
    assert found, f"{path.name} has no '# expect:' line"
    return found.group(1)


def case_id(path: pathlib.Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_label_is_what_the_tpu_said(path):
    observed = TPU.get(case_id(path))
    assert observed is not None, f"{case_id(path)} was never compiled on a TPU (tests/tpu_cases/run_cases.py)"
    assert (observed["outcome"] == "error") == (label(path) != "clean"), observed
    assert INTERPRET[case_id(path)]["outcome"] == "ok", "interpret mode accepts every case: that is the point"


def tpu_codes(path: pathlib.Path, tpu_generation: str | None) -> list[str]:
    findings = Project(lint=rules_for(tpu_generation)).check_paths([str(path)])[0].findings
    return sorted({f.code for f in findings if f.code.startswith("PAL1")})


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_pallas_ls_reports_the_label(path):
    """The labels are a TPU v5e's: with `tpu-generation = "v5e"`, exactly the labelled rule."""
    expected = [] if label(path) == "clean" else [label(path)]
    assert tpu_codes(path, "v5e") == expected


# Over 32 MiB (the largest default scoped limit pallas-ls knows, v6e's), or over the limit the
# launch sets itself: what fails on every generation.
FAILS_ON_EVERY_GENERATION = {
    "attention_blocks_over_every_limit",
    "int8_tiles_over_every_limit",
    "vmem_limit_set_too_low",
}


@pytest.mark.parametrize("path", sorted(CASES_DIR.glob("pal102/*.py")), ids=case_id)
def test_without_a_generation_only_what_fails_on_every_generation(path):
    """No `tpu-generation`: a VMEM finding must hold on every generation in the table."""
    expected = ["PAL102"] if path.stem in FAILS_ON_EVERY_GENERATION else []
    assert label(path) != "clean" or not expected
    assert tpu_codes(path, None) == expected
