"""The editor's open documents, beside the engine's Project (engine/open_documents.py, issue 19).

A document is open from its first analysis to its close: while it is, its text is the project's
overlay and a first look is no longer taken; closing it (or the file going away) starts afresh.
Cancellation is tested in tests/lsp/test_cancellation.py.
"""

from __future__ import annotations

from pallas_ls.engine.open_documents import FIRST_LOOK_MIN_CHARS, OpenDocuments
from pallas_ls.lint import Project

KERNEL = """\
import jax
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


def run(x):
    return pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""
UNRELATED = "".join(f"\n\ndef unrelated_{i}(values):\n    return sum(v * {i} for v in values)\n" for i in range(600))
BIG = KERNEL + UNRELATED


def codes(findings) -> list[str]:
    return sorted(f.code for f in findings or [])


def test_the_first_look_is_taken_until_the_document_is_analysed(tmp_path):
    assert len(BIG) > FIRST_LOOK_MIN_CHARS
    path = str(tmp_path / "big.py")
    documents = OpenDocuments(Project([str(tmp_path)]))
    assert codes(documents.first_look(path, BIG)) == ["PAL001"]
    assert documents.first_look(str(tmp_path / "small.py"), KERNEL) is None  # too small to slice
    assert codes(documents.findings_for(path, BIG)) == ["PAL001"]
    assert documents.first_look(path, BIG) is None  # open: its edits are analysed incrementally
    documents.close(path)
    assert codes(documents.first_look(path, BIG)) == ["PAL001"]


def test_closing_a_document_reads_its_file_again(tmp_path):
    path = tmp_path / "k.py"
    path.write_text("x = 1\n")
    documents = OpenDocuments(Project([str(tmp_path)]))
    assert codes(documents.findings_for(str(path), KERNEL)) == ["PAL001"]
    assert documents.project.overlay_of(str(path)) == KERNEL
    assert documents.project.analysis_of(str(path)).source.text == KERNEL
    documents.close(str(path))
    assert documents.project.overlay_of(str(path)) is None
    assert documents.project.analysis_of(str(path)).source.text == "x = 1\n"


def test_a_file_gone_from_disk_starts_its_document_afresh(tmp_path):
    kernels, ops = tmp_path / "kernels.py", tmp_path / "ops.py"
    kernels.write_text("def add_one(x_ref, o_ref):\n    return x_ref[...] + 1\n")
    ops.write_text(
        "from jax.experimental import pallas as pl\nfrom kernels import add_one\npl.pallas_call(add_one, s)(x)\n"
    )
    documents = OpenDocuments(Project([str(tmp_path)]))
    documents.project.index_file(str(ops))
    big = kernels.read_text() + UNRELATED  # never says "pallas": a kernel only because ops.py launches it
    assert codes(documents.findings_for(str(kernels), big)) == ["PAL001"]
    assert documents.first_look(str(kernels), big) is None
    documents.forget_file(str(kernels))
    assert codes(documents.first_look(str(kernels), big)) == ["PAL001"]
    documents.forget_file(str(ops))
    assert documents.project.launchers_of(str(kernels)) == set()
    assert documents.first_look(str(kernels), big) is None  # nothing launches it now
