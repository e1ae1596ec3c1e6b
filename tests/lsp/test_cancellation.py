"""Cooperative cancellation (issue 16): a newer edit cancels the running analysis of its document.

The Worker sets a running job's token when a job for the same key is submitted; the engine stops
at its next check (engine/cancel.py) and leaves its caches as if the analysis had never started.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from pallas_ls.engine.cancel import Cancelled, stop_if
from pallas_ls.engine.incremental import IncrementalDocument
from pallas_ls.engine.open_documents import OpenDocuments
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import Project, run_rules
from pallas_ls.lsp.scheduler import Worker

# ---------------------------------------------------------------------------- Worker


def _run_worker(body):
    """Run `body(worker, results)` with a Worker on a fresh loop; results: (tag, result, error)."""
    loop = asyncio.new_event_loop()
    worker = Worker(loop, "test-worker")
    results: list = []
    try:
        body(worker, results)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not worker.idle.is_set():
            time.sleep(0.005)
        loop.run_until_complete(asyncio.sleep(0.01))  # the callbacks posted by the worker
        return results
    finally:
        worker.stop()
        loop.close()


def _cancellable(started: threading.Event, token: threading.Event, tag: str):
    def job():
        started.set()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            stop_if(token.is_set)  # the engine's checks
            time.sleep(0.001)
        return tag

    return job


def test_a_newer_job_for_a_running_key_cancels_it_and_runs():
    def body(worker, results):
        started, token = threading.Event(), threading.Event()
        worker.submit("a", _cancellable(started, token, "old"), lambda r, e: results.append(("old", r, e)), token)
        assert started.wait(5)
        worker.submit("a", lambda: "new", lambda r, e: results.append(("new", r, e)), threading.Event())
        assert token.is_set()

    results = _run_worker(body)
    assert [tag for tag, _, _ in results] == ["old", "new"]
    # Cancelled (not its result): the old job stopped at its token instead of running out its 5 s.
    assert isinstance(results[0][2], Cancelled) and results[0][1] is None
    assert results[1][1:] == ("new", None)


def test_a_job_for_another_key_does_not_cancel_the_running_one():
    def body(worker, results):
        started, token = threading.Event(), threading.Event()
        done = threading.Event()

        def job():
            started.set()
            done.wait(5)
            stop_if(token.is_set)
            return "a"

        worker.submit("a", job, lambda r, e: results.append(("a", r, e)), token)
        assert started.wait(5)
        worker.submit("b", lambda: "b", lambda r, e: results.append(("b", r, e)), threading.Event())
        assert not token.is_set()
        done.set()

    results = _run_worker(body)
    assert [(tag, r, e) for tag, r, e in results] == [("a", "a", None), ("b", "b", None)]


def test_a_queued_job_is_replaced_and_a_job_without_token_runs_to_the_end():
    def body(worker, results):
        started, release = threading.Event(), threading.Event()

        def blocker():
            started.set()
            release.wait(5)
            return "x"

        worker.submit("x", blocker, lambda r, e: results.append(("x", r, e)))  # no token: never cancelled
        assert started.wait(5)
        worker.submit("y", lambda: 1, lambda r, e: results.append(("y1", r, e)))
        worker.submit("y", lambda: 2, lambda r, e: results.append(("y2", r, e)))  # replaces y1, still queued
        worker.submit("x", lambda: "x2", lambda r, e: results.append(("x2", r, e)))
        release.set()

    results = _run_worker(body)
    assert results == [("x", "x", None), ("y2", 2, None), ("x2", "x2", None)]


# ---------------------------------------------------------------------------- engine

KERNEL_BLOCK = """

def kernel_{i}(x_ref, o_ref):
    o_ref[...] = x_ref[...] + {i}


def launch_{i}(x):
    return pl.pallas_call(kernel_{i}, out_shape=jax.ShapeDtypeStruct((8, 100), jnp.float32),
                          grid=(2,), in_specs=[pl.BlockSpec((8, 100), lambda i: (i, 0))])(x)

r_{i} = jax.new_ref(x)
pl.pallas_call(kernel_{i}, out_shape=S)(r_{i}, r_{i})
"""

HEADER = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

S = jax.ShapeDtypeStruct((8,), jnp.float32)
"""


def big_file(n: int = 20, salt: str = "") -> str:
    return HEADER + "".join(KERNEL_BLOCK.format(i=i) for i in range(n)) + salt


def summary(findings):
    return sorted((f.code, f.range, f.message, [fix.title for fix in f.fixes]) for f in findings)


class StopAfter:
    """A should_stop that says yes from its `n`-th call on."""

    def __init__(self, n: int) -> None:
        self.n, self.calls = n, 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.calls >= self.n


PATH = "/tmp/pallas_ls_cancel/big.py"
OLD = big_file()
NEW = big_file(salt="\nextra = 1\n").replace("+ 3\n", "+ 33\n").replace("r_7 =", "r_7 = 1 +")


@pytest.fixture(scope="module")
def expected():
    """Findings of uncancelled analyses of both versions, and how many checks the edit's analysis
    makes (between blocks, candidate calls, before the rules)."""
    documents = OpenDocuments(Project())
    old = summary(documents.findings_for(PATH, OLD))
    counter = StopAfter(10**9)
    new = summary(documents.findings_for(PATH, NEW, counter))
    assert new == summary(Project().findings_for(PATH, NEW)) and new != old
    assert counter.calls > 100
    return old, new, counter.calls


# Where the analysis of the edit is cancelled: its n-th check (a fraction: of all its checks).
# 1: on entry; 2, 3: before / while parsing the blocks; 0.25: parsing; 0.5, 0.75: finding
# launches; -1: after the launches; 0: before the rules (the last check).
WHERE = [1, 2, 3, 0.25, 0.5, 0.75, -1, 0]


@pytest.mark.parametrize("where", WHERE)
def test_a_cancelled_project_analysis_then_a_fresh_one_gives_the_same_findings(where, expected):
    expected_old, expected_new, checks = expected
    n = int(where * checks) if isinstance(where, float) else (checks + where if where <= 0 else where)
    documents = OpenDocuments(Project())
    assert summary(documents.findings_for(PATH, OLD)) == expected_old
    with pytest.raises(Cancelled):
        documents.findings_for(PATH, NEW, StopAfter(n))
    if n < checks:  # cancelled while analysing: the project is as if it had not been asked
        assert documents.project.overlay_of(PATH) == OLD
        assert summary(documents.findings_for(PATH, OLD)) == expected_old  # the old model is whole
    assert summary(documents.findings_for(PATH, NEW)) == expected_new
    assert summary(documents.findings_for(PATH, OLD)) == expected_old


def test_a_cancelled_first_analysis_leaves_no_document(expected):
    documents = OpenDocuments(Project())
    with pytest.raises(Cancelled):
        documents.findings_for(PATH, NEW, StopAfter(50))
    assert documents.project.overlay_of(PATH) is None and PATH not in documents._documents
    assert summary(documents.findings_for(PATH, NEW)) == expected[1]


@pytest.mark.parametrize("where", [1, 5, 60, 120])
def test_a_cancelled_incremental_analysis_leaves_the_document_as_it_was(where):
    document = IncrementalDocument()
    old_analysis = document.analyze(SourceFile.from_text(OLD, "t.py"))
    old_findings = summary(run_rules(old_analysis))
    blocks, parts = dict(document._blocks), dict(document._parts)
    bindings = document.module_scope.bindings
    with pytest.raises(Cancelled):
        document.analyze(SourceFile.from_text(NEW, "t.py"), should_stop=StopAfter(where))
    assert document._blocks == blocks and document._parts == parts
    assert document.module_scope.bindings is bindings
    assert summary(run_rules(old_analysis)) == old_findings  # the old model is whole
    fresh_new = summary(run_rules(IncrementalDocument().analyze(SourceFile.from_text(NEW, "t.py"))))
    assert summary(run_rules(document.analyze(SourceFile.from_text(NEW, "t.py")))) == fresh_new
    assert document.reused > 0


# ---------------------------------------------------------------------------- pipeline
# (A pytest-lsp test of a burst of edits costs ~7 s of server start-up on a loaded machine: the
# pipeline's part is tested on its own, with a stand-in session.)


def test_the_pipeline_hands_the_token_to_the_engine_and_drops_a_cancelled_job_quietly():
    from types import SimpleNamespace

    from pallas_ls.lsp.pipeline import Pipeline

    submitted = []
    document = SimpleNamespace(uri="file:///k.py", path="/k.py", text="x = 1\n", version=3)
    state = SimpleNamespace(result="the last result", first_look=None, in_flight=None, changed_at=None)

    def analyze_document(path, text, should_stop=None):
        stop_if(should_stop)
        raise AssertionError("should have stopped")

    session = SimpleNamespace(
        store=SimpleNamespace(get=lambda uri: document, texts_by_path=lambda: {}),
        worker=SimpleNamespace(submit=lambda *args, **kw: submitted.append(args)),
        doc=lambda uri: state,
        docs={document.uri: state},
        generation=0,
        encoding="utf-16",
        editor=None,
        client=SimpleNamespace(diagnostics=None),
        analyzer=SimpleNamespace(analyze_document=analyze_document),
        resolver=SimpleNamespace(resolve=lambda path, editor: SimpleNamespace(is_excluded=lambda p: False)),
    )  # no `server`: publishing anything would fail
    pipeline = Pipeline(session)
    pipeline._submit(document.uri)
    ((key, job, callback, token),) = [args[:4] for args in submitted]
    assert key == document.uri and isinstance(token, threading.Event) and state.in_flight is not None
    token.set()  # what the worker does when a newer job for the key comes in
    with pytest.raises(Cancelled):
        job()
    callback(None, Cancelled())
    assert state.in_flight is None and state.result == "the last result"
