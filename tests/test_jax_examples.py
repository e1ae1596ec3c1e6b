"""JAX tier: every rule example runs under real JAX (CPU, interpret mode) and does what it claims.

An INVALID example must raise an exception whose text contains its `jax_error`; a VALID one must
run to the end without an exception.  An INVALID example with a `fixed` text must run cleanly
once fixed.  All programs run in ONE worker process (tests/jax_runner.py) that imports jax once;
the session fixture starts it and the tests below assert on its per-example results.

Run with: pytest -m jax
"""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest

# Like pytest.importorskip("jax"), without importing jax into the test process: the fast tier
# (`-m "not jax"`) still collects this module and should not pay for a jax import, and the
# worker imports jax itself (an installed but broken jax then fails loudly instead of skipping).
if importlib.util.find_spec("jax") is None:
    pytest.skip("jax is not installed", allow_module_level=True)

from pallas_ls.rules import RULES  # noqa: E402

pytestmark = pytest.mark.jax

RUNNER = pathlib.Path(__file__).with_name("jax_runner.py")
WORKER_TIMEOUT_S = 900

CASES = [(f"{rule.code}-{example.name}", rule, example) for rule in RULES.values() for example in rule.examples]
FIXED_CASES = [(case_id + "-fixed", rule, example) for case_id, rule, example in CASES if example.fixed is not None]


def _tpu_rule(rule) -> bool:
    """PAL1xx: what a TPU rejects and interpret mode runs; its examples run in interpret mode here."""
    return rule.code.startswith("PAL1")


def _worker_env() -> dict[str, str]:
    """The parent environment without JAX_* settings, so examples run under jax's defaults, on CPU."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env["JAX_PLATFORMS"] = "cpu"
    return env


@pytest.fixture(scope="session")
def jax_results(tmp_path_factory) -> dict[str, dict]:
    """Run every example (and every fixed text) in one jax worker; results by case id."""
    workdir = tmp_path_factory.mktemp("jax-examples")
    requests = [
        {"id": case_id, "source": example.source, "interpret": _tpu_rule(rule)} for case_id, rule, example in CASES
    ]
    requests += [{"id": case_id, "source": example.fixed} for case_id, _, example in FIXED_CASES]
    request_file, result_file = workdir / "request.json", workdir / "result.json"
    request_file.write_text(json.dumps(requests), encoding="utf-8")
    programs = workdir / "programs"
    programs.mkdir()
    proc = subprocess.run(
        [sys.executable, str(RUNNER), str(request_file), str(result_file), str(programs)],
        capture_output=True,
        text=True,
        env=_worker_env(),
        timeout=WORKER_TIMEOUT_S,
    )
    if proc.returncode != 0 or not result_file.exists():
        pytest.fail(
            f"the jax example worker failed (exit {proc.returncode})\n"
            f"--- stdout\n{proc.stdout[-5000:]}\n--- stderr\n{proc.stderr[-5000:]}",
            pytrace=False,
        )
    results = {r["id"]: r for r in json.loads(result_file.read_text(encoding="utf-8"))}
    assert set(results) == {r["id"] for r in requests}, "the worker did not report every example"
    return results


def _explain(result: dict) -> str:
    return (
        f"program: {result['path']}\n"
        f"--- output\n{result.get('output') or ''}\n"
        f"--- traceback\n{result.get('traceback') or '(none)'}"
    )


def check_invalid(result: dict, jax_error: str) -> None:
    assert not result["ok"], (
        f"INVALID example ran without an exception; JAX was expected to raise {jax_error!r}\n" + _explain(result)
    )
    texts = result["chain"] or [result["message"]]
    assert any(jax_error in text for text in texts), (
        f"JAX raised a different error than the example claims.\n"
        f"expected a message containing: {jax_error!r}\n"
        f"got: {result['message']}\n" + _explain(result)
    )


def check_valid(result: dict) -> None:
    assert result["ok"], f"VALID example raised {result['message']}\n" + _explain(result)


@pytest.mark.parametrize(
    "case_id, example",
    [pytest.param(case_id, example, id=case_id) for case_id, _, example in CASES],
)
def test_example_under_jax(jax_results, case_id, example):
    result = jax_results[case_id]
    assert not result.get("config_leaked"), f"the example changed jax.config: {result['config_leaked']}"
    if example.valid or example.tpu_error:  # a TPU rule's INVALID example: interpret mode runs it
        check_valid(result)
    else:
        check_invalid(result, example.jax_error)


@pytest.mark.parametrize(
    "case_id",
    [pytest.param(case_id, id=case_id) for case_id, _, _ in FIXED_CASES],
)
def test_fixed_example_runs(jax_results, case_id):
    check_valid(jax_results[case_id])


def test_programs_carry_their_file_name(jax_results):
    """JAX's messages name the example file, so they point at a real file:line."""
    located = [r for r in jax_results.values() if r["message"] and r["path"] in r["message"]]
    assert located, "no JAX message mentions the example file it came from"
    for result in located:
        assert pathlib.Path(result["path"]).is_file()
