"""didChange -> diagnostics latency on a large real file (jax's Mosaic lowering, ~5,400 lines).

Checks that a stream of edits to a big real file keeps its diagnostics right, and prints the
latencies (run with `-s`).  No timing is asserted: machines are shared and noisy, so speed is
measured by benchmarks/bench_vs_ruff.py, as ratios against ruff in one run.
"""

from __future__ import annotations

import statistics
import time

import pytest
from lsp_harness import capabilities, editor_session

pytestmark = pytest.mark.asyncio

EDITS = 12


@pytest.mark.parametrize("client, debounce", [("visual-studio-code", 50), ("neovim", 50), ("visual-studio-code", 0)])
async def test_edit_latency_on_a_large_file(tmp_path, jax_dir, client, debounce):
    path = jax_dir / "_src" / "pallas" / "mosaic" / "lowering.py"
    if not path.exists():
        pytest.skip("this jax has no _src/pallas/mosaic/lowering.py")
    text = path.read_text(encoding="utf-8")
    async with editor_session(tmp_path, capabilities(client), initialization_options={"debounce": debounce}) as ed:
        uri = ed.open("lowering.py", text)
        baseline = await ed.diagnostics(uri)
        last_line = len(text.splitlines())
        latencies = []
        for i in range(EDITS):
            started = time.perf_counter()
            # Type one character at the end of the file (a comment line, so the findings stay).
            if i == 0:
                ed.edit(uri, (last_line, 0), (last_line, 0), "#")
            else:
                ed.edit(uri, (last_line, i), (last_line, i), "x")
            diagnostics = await ed.diagnostics(uri)
            latencies.append((time.perf_counter() - started) * 1000)
            assert [d.code for d in diagnostics] == [d.code for d in baseline]
        median = statistics.median(latencies)
        print(f"\n{client} debounce={debounce}ms, {len(text.splitlines())} lines: didChange -> diagnostics "
              f"median {median:.0f} ms, min {min(latencies):.0f} ms, max {max(latencies):.0f} ms")
