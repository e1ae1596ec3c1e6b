"""TPU tier (issue 37): on a machine with a TPU, every TPU rule's examples and every case of
tests/tpu_cases are compiled for it (no interpret mode): an INVALID example must fail with its
`tpu_error`, a VALID one must run; each case must fail or run as its `# expect:` label says.

Skipped where there is no TPU (CI never has one).  All programs run in ONE worker process
(tests/jax_runner.py): a TPU start costs seconds, and one program at a time holds the chip.

Run with: pytest -m tpu
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

from pallas_ls.rules import RULES

pytestmark = pytest.mark.tpu

HERE = pathlib.Path(__file__).parent
RUNNER = HERE / "jax_runner.py"
EXAMPLES = [
    (f"{rule.code}-{example.name}", example.source, example.tpu_error if not example.valid else None)
    for rule in RULES.values()
    if rule.code.startswith("PAL1")
    for example in rule.examples
]
CASES = [
    (f"case-{path.parent.name}-{path.stem}", path.read_text(), _label)
    for path in sorted((HERE / "tpu_cases").glob("*/*.py"))
    for _label in [re.match(r"# expect: (\S+)", path.read_text()).group(1)]  # type: ignore[union-attr]
]


def _tpu_present() -> bool:
    if importlib.util.find_spec("jax") is None:
        return False
    if not (glob.glob("/dev/accel*") or os.path.exists("/dev/vfio")):
        return False  # no TPU device files: do not pay for starting jax to ask
    probe = [sys.executable, "-c", "import jax; print(jax.default_backend())"]
    return subprocess.run(probe, capture_output=True, text=True, timeout=300).stdout.strip() == "tpu"


@pytest.fixture(scope="session")
def compiled(tmp_path_factory) -> dict[str, dict]:
    if not _tpu_present():
        pytest.skip("no TPU here: the TPU tier compiles the TPU rules' examples on a real TPU")
    requests = [{"id": case_id, "source": source} for case_id, source, _ in EXAMPLES + CASES]
    # A kernel that reads past its array halts the TPU core and spoils every later kernel of its
    # process (PAL105): those run one to a worker, after the others.
    halting = [r for r in requests if "PAL105" in r["id"] or "pal105" in r["id"]]
    batches = [[r for r in requests if r not in halting]] + [[r] for r in halting]
    results: dict[str, dict] = {}
    for number, batch in enumerate(batches):
        results.update(_run_worker(tmp_path_factory.mktemp(f"tpu-examples-{number}"), batch))
    return results


def _run_worker(workdir: pathlib.Path, requests: list[dict]) -> dict[str, dict]:
    request_file, result_file = workdir / "request.json", workdir / "result.json"
    request_file.write_text(json.dumps(requests), encoding="utf-8")
    (workdir / "programs").mkdir()
    proc = subprocess.run(
        [sys.executable, str(RUNNER), str(request_file), str(result_file), str(workdir / "programs")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0 or not result_file.exists():
        pytest.fail(f"the TPU worker failed (exit {proc.returncode})\n{proc.stderr[-5000:]}", pytrace=False)
    return {r["id"]: r for r in json.loads(result_file.read_text(encoding="utf-8"))}


def _said(result: dict) -> str:
    return "\n".join(result.get("chain") or [result.get("message") or ""])


@pytest.mark.parametrize("case_id, tpu_error", [(c, e) for c, _, e in EXAMPLES], ids=[c for c, _, _ in EXAMPLES])
def test_example_compiled_for_a_tpu(compiled, case_id, tpu_error):
    result = compiled[case_id]
    if tpu_error is None:
        assert result["ok"], f"VALID example failed on the TPU: {result['message']}"
    else:
        assert not result["ok"], "INVALID example compiled and ran on the TPU"
        assert tpu_error in _said(result), f"the TPU said something else: {result['message']}"


@pytest.mark.parametrize("case_id, expect", [(c, e) for c, _, e in CASES], ids=[c for c, _, _ in CASES])
def test_case_compiled_for_a_tpu(compiled, case_id, expect):
    result = compiled[case_id]
    assert result["ok"] == (expect == "clean"), f"{case_id}: {result['message']}"
