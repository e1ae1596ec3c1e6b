"""`workspace/diagnostic`: closed files report their findings (a kernel in kern.py, launched from
launch.py, neither open or only launch.py open), result ids come back `unchanged`, excluded and
ignored findings stay out, a valid workspace is silent."""

from __future__ import annotations

import asyncio

import pytest
from lsp_harness import CLEAN, DEADLINE, KERNEL, capabilities, editor_session, eventually, wait_for
from lsprotocol import types

pytestmark = pytest.mark.asyncio

KERN = """\
def add_one(x_ref, o_ref):
    return x_ref[...] + 1
"""

LAUNCH = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from kern import add_one

x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""


async def workspace_report(ed, previous: list[types.PreviousResultId] | None = None) -> dict[str, object]:
    report = await asyncio.wait_for(
        ed.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous or [])),
        DEADLINE,
    )
    return {item.uri: item for item in report.items}


async def report_once_loud_is_in(ed) -> dict[str, object]:
    """The workspace report, gathered over pulls until loud.py's PAL001 is in it (the index of the
    closed files is built in the background)."""
    report: dict[str, object] = {}

    async def loud_reported() -> bool:
        report.update(await workspace_report(ed))
        return "PAL001" in codes(report.get(ed.uri("loud.py")))

    await eventually(loud_reported, "loud.py's PAL001")
    return report


def codes(item) -> list[str]:
    return [d.code for d in getattr(item, "items", [])]


def caps():
    return capabilities("visual-studio-code", pull=True, refresh=True)


async def test_the_advertised_capability(tmp_path):
    async with editor_session(tmp_path, caps()) as ed:
        provider = ed.result.capabilities.diagnostic_provider
        assert provider.workspace_diagnostics is True


@pytest.mark.parametrize("open_launcher", [False, True], ids=["nothing-open", "launcher-open"])
async def test_a_closed_files_kernel_launched_elsewhere(tmp_path, open_launcher):
    (tmp_path / "kern.py").write_text(KERN)
    (tmp_path / "launch.py").write_text(LAUNCH)
    async with editor_session(tmp_path, caps()) as ed:
        kern = ed.uri("kern.py")
        if open_launcher:
            launch = ed.open("launch.py", LAUNCH)
        found: dict[str, object] = {}

        async def kern_reports_pal001() -> bool:
            found.update(await workspace_report(ed))
            return "PAL001" in codes(found.get(kern))

        await eventually(kern_reports_pal001, "kern.py's PAL001 in the workspace report")
        item = found[kern]
        assert item.kind == "full" and item.version is None and item.result_id
        diagnostic = item.items[0]
        assert diagnostic.range.start.line == 1  # the `return` in kern.py
        assert any(r.location.uri == ed.uri("launch.py") for r in diagnostic.related_information or [])
        if open_launcher:
            assert found[launch].version == 1 and codes(found[launch]) == []


async def test_unchanged_result_ids(tmp_path):
    (tmp_path / "kern.py").write_text(KERN)
    (tmp_path / "launch.py").write_text(LAUNCH)
    async with editor_session(tmp_path, caps()) as ed:
        kern = ed.uri("kern.py")
        own = ed.open("own.py", KERNEL)
        first: dict[str, object] = {}

        async def ready() -> bool:
            first.clear()
            first.update(await workspace_report(ed))
            return "PAL001" in codes(first.get(kern)) and "PAL001" in codes(first.get(own))

        await eventually(ready, "the first workspace report")
        previous = [types.PreviousResultId(uri=uri, value=item.result_id) for uri, item in first.items()]
        second = await workspace_report(ed, previous)
        assert set(second) == set(first)
        assert {uri: item.kind for uri, item in second.items()} == {uri: "unchanged" for uri in first}
        assert all(second[uri].result_id == first[uri].result_id for uri in first)
        # A changed file is reported in full again; the others stay unchanged.
        (tmp_path / "kern.py").write_text(KERN.replace("return x_ref[...] + 1", "o_ref[...] = x_ref[...] + 1"))
        third = await workspace_report(ed, previous)
        assert third[kern].kind == "full" and codes(third[kern]) == []
        assert third[own].kind == "unchanged"


async def test_excluded_files_and_ignored_codes_are_absent(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.pallas-ls]\nexclude = ["generated/**"]\n\n[tool.pallas-ls.per-file-ignores]\n"quiet.py" = ["PAL001"]\n'
    )
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "kernel.py").write_text(KERNEL)
    (tmp_path / "quiet.py").write_text(KERNEL)
    (tmp_path / "loud.py").write_text(KERNEL)
    async with editor_session(tmp_path, caps()) as ed:
        report = await report_once_loud_is_in(ed)
        assert ed.uri("generated/kernel.py") not in report
        assert codes(report.get(ed.uri("quiet.py"))) == []


@pytest.mark.parametrize("respect", [True, False])
async def test_gitignored_files_are_not_reported_unless_asked(tmp_path, respect):
    """As `check` (issue 35): a generated file that git ignores is skipped; `respect-gitignore =
    false` reports it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("gen_kernels.py\n")
    (tmp_path / "pyproject.toml").write_text(f"[tool.pallas-ls]\nrespect-gitignore = {str(respect).lower()}\n")
    (tmp_path / "gen_kernels.py").write_text(KERNEL)
    (tmp_path / "loud.py").write_text(KERNEL)
    async with editor_session(tmp_path, caps()) as ed:
        report = await report_once_loud_is_in(ed)
        assert (ed.uri("gen_kernels.py") in report) is not respect


async def test_ignore_setting_applies_to_closed_files(tmp_path):
    (tmp_path / "loud.py").write_text(KERNEL)
    async with editor_session(tmp_path, caps(), configuration={"pallas-ls": {"ignore": ["PAL001"]}}) as ed:
        report = await workspace_report(ed)
        assert all(codes(item) == [] for item in report.values())


async def test_a_valid_workspace_is_silent(tmp_path):
    (tmp_path / "clean.py").write_text(CLEAN)
    (tmp_path / "other.py").write_text("print('no kernels here')\n")
    async with editor_session(tmp_path, caps()) as ed:
        ed.open("open_clean.py", CLEAN)
        report = await workspace_report(ed)
        assert ed.uri("clean.py") in report and ed.uri("open_clean.py") in report
        assert all(codes(item) == [] for item in report.values())
        assert ed.uri("other.py") not in report  # never mentions Pallas: not analysed


async def test_an_edit_to_the_launcher_refreshes_the_closed_kernel(tmp_path):
    (tmp_path / "kern.py").write_text(KERN)
    async with editor_session(tmp_path, caps()) as ed:
        kern = ed.uri("kern.py")
        launch = ed.open("launch.py", LAUNCH)
        await eventually(lambda: _has_pal001(ed, kern), "kern.py's PAL001 (the launch is in the open launch.py)")
        seen = ed.client.diagnostic_refresh_count
        ed.replace_all(launch, LAUNCH.replace("pl.pallas_call", "pl.no_such_call"))
        await wait_for(lambda: ed.client.diagnostic_refresh_count > seen, "workspace/diagnostic/refresh")
        await eventually(lambda: _lacks_pal001(ed, kern), "kern.py's PAL001 gone")


async def _has_pal001(ed, uri) -> bool:
    return "PAL001" in codes((await workspace_report(ed)).get(uri))


async def _lacks_pal001(ed, uri) -> bool:
    return "PAL001" not in codes((await workspace_report(ed)).get(uri))


async def test_a_deleted_file_is_cleared(tmp_path):
    (tmp_path / "loud.py").write_text(KERNEL)
    async with editor_session(tmp_path, caps()) as ed:
        loud = ed.uri("loud.py")
        await eventually(lambda: _has_pal001(ed, loud), "loud.py's PAL001")
        (tmp_path / "loud.py").unlink()
        cleared = await workspace_report(ed)
        assert cleared[loud].kind == "full" and codes(cleared[loud]) == []
        assert loud not in await workspace_report(ed)


async def test_work_done_progress_when_the_client_gives_a_token(tmp_path):
    (tmp_path / "kern.py").write_text(KERN)
    (tmp_path / "launch.py").write_text(LAUNCH)
    async with editor_session(tmp_path, caps()) as ed:
        ed.client.progress_reports["ws-1"] = []  # a client-made token (no window/workDoneProgress/create)
        report = await asyncio.wait_for(
            ed.client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(previous_result_ids=[], work_done_token="ws-1")
            ),
            DEADLINE,
        )
        assert ed.uri("launch.py") in {i.uri for i in report.items}
        kinds = [type(v).__name__ for v in ed.client.progress_reports["ws-1"]]
        assert kinds == ["WorkDoneProgressBegin", "WorkDoneProgressReport", "WorkDoneProgressEnd"]
        await workspace_report(ed)  # without a token: nothing more is sent
        assert len(ed.client.progress_reports["ws-1"]) == 3
