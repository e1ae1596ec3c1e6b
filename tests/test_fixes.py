"""Fixes: each INVALID example's expected fixed text, and the rewrite mechanics on awkward code."""

from __future__ import annotations

import pytest

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.edits import apply_fixes
from pallas_ls.engine.findings import Applicability
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import run_rules
from pallas_ls.rules import RULES

FIXED_EXAMPLES = [(rule.code, ex) for rule in RULES.values() for ex in rule.invalid_examples if ex.fixed is not None]


def preferred_safe_fixes(text: str, code: str | None = None):
    source = SourceFile.from_text(text, "t.py")
    findings = [f for f in run_rules(analyze(source)) if code is None or f.code == code]
    fixes = [fix for f in findings for fix in f.fixes if fix.preferred and fix.applicability is Applicability.SAFE]
    return source, findings, fixes


def fix_once(text: str, code: str | None = None) -> str:
    source, _, fixes = preferred_safe_fixes(text, code)
    return apply_fixes(source, fixes)[0]


def preferred_fixes(text: str, code: str, unsafe: bool):
    """The preferred fixes `check --fix` applies (`unsafe`: with `--unsafe-fixes`)."""
    source = SourceFile.from_text(text, "t.py")
    findings = [f for f in run_rules(analyze(source)) if f.code == code]
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    return source, [x for f in findings for x in f.fixes if x.preferred and x.applicability in allowed]


@pytest.mark.parametrize("code,example", FIXED_EXAMPLES, ids=[f"{c}-{e.name}" for c, e in FIXED_EXAMPLES])
def test_preferred_fix_gives_the_stated_text_and_rechecks_clean(code, example):
    unsafe = example.fix_applicability is Applicability.UNSAFE
    source, fixes = preferred_fixes(example.source, code, unsafe)
    assert fixes and {fix.applicability for fix in fixes} == {example.fix_applicability}
    fixed = apply_fixes(source, fixes)[0]
    assert fixed == example.fixed
    compile(fixed, "fixed.py", "exec", dont_inherit=True)
    assert [f.code for f in run_rules(analyze(SourceFile.from_text(fixed, "t.py"))) if f.code == code] == []
    again, more = preferred_fixes(fixed, code, unsafe)
    assert apply_fixes(again, more)[0] == fixed  # a second pass changes nothing


NO_FIX_EXAMPLES = [(rule.code, ex) for rule in RULES.values() for ex in rule.invalid_examples if ex.fixed is None]


@pytest.mark.parametrize("code,example", NO_FIX_EXAMPLES, ids=[f"{c}-{e.name}" for c, e in NO_FIX_EXAMPLES])
def test_examples_without_fixed_text_get_no_bulk_fix(code, example):
    source, fixes = preferred_fixes(example.source, code, unsafe=True)
    assert apply_fixes(source, fixes)[0] == example.source


def test_every_pal001_invalid_example_has_a_fix():
    # Only an example that says so in its name has no fix applied in bulk.
    assert all(ex.fixed is not None or ex.name.endswith("-no-bulk-fix") for ex in RULES["PAL001"].invalid_examples)


HEADER = "from jax.experimental import pallas as pl\nimport jax\nS = jax.ShapeDtypeStruct((8,), 'f4')\n"


def fixed_kernel(kernel: str, launch: str = "pl.pallas_call(k, out_shape=S)(x)\n") -> str:
    return fix_once(HEADER + kernel + launch)[len(HEADER) :].replace(launch, "")


def test_return_not_last_keeps_control_flow():
    kernel = "def k(x_ref, o_ref):\n    if c:\n        return x_ref[...]\n    o_ref[...] = 0\n"
    assert (
        fixed_kernel(kernel)
        == "def k(x_ref, o_ref):\n    if c:\n        o_ref[...] = x_ref[...]\n        return\n    o_ref[...] = 0\n"
    )


def test_inline_return_gets_inline_bare_return():
    kernel = "def k(x_ref, o_ref):\n    if c: return x_ref[...]\n    o_ref[...] = 0\n"
    assert (
        fixed_kernel(kernel) == "def k(x_ref, o_ref):\n    if c: o_ref[...] = x_ref[...]; return\n    o_ref[...] = 0\n"
    )


def test_comment_and_tabs_and_crlf_are_kept():
    kernel = "def k(x_ref, o_ref):\r\n\tif c:\r\n\t\treturn x_ref[...]  # why\r\n\to_ref[...] = 0\r\n"
    launch = "pl.pallas_call(k, out_shape=S)(x)\r\n"
    text = HEADER.replace("\n", "\r\n") + kernel + launch
    assert fix_once(text) == text.replace(
        "\t\treturn x_ref[...]  # why\r\n", "\t\to_ref[...] = x_ref[...]  # why\r\n\t\treturn\r\n"
    )


def test_multiline_value_is_kept_verbatim():
    kernel = "def k(x_ref, o_ref):\n    return (x_ref[...] +\n            1)\n"
    assert fixed_kernel(kernel) == "def k(x_ref, o_ref):\n    o_ref[...] = (x_ref[...] +\n            1)\n"


def test_tuple_length_mismatch_gets_no_write_fix():
    _source, [finding], _ = preferred_safe_fixes(
        HEADER + "def k(x_ref, o_ref):\n    return 1, 2\npl.pallas_call(k, S)(x)\n", "PAL001"
    )
    assert [f.title for f in finding.fixes] == ["Return None instead", "Disable PAL001 for this line"]


def test_output_found_from_layout_not_from_name():
    kernel = "def k(x_ref, result, scratch):\n    return x_ref[...]\n"
    launch = "pl.pallas_call(k, out_shape=S, scratch_shapes=[v])(x)\n"
    assert fixed_kernel(kernel, launch) == "def k(x_ref, result, scratch):\n    result[...] = x_ref[...]\n"


def test_unknown_layout_falls_back_on_names_as_unsafe():
    # Neither source knows: the out_shape is a parameter and the launched callable is never called here.
    text = (
        HEADER
        + "def k(x_ref, o_ref):\n    return x_ref[...]\ndef f(shape):\n    return pl.pallas_call(k, out_shape=shape)\n"
    )
    _, [finding], _ = preferred_safe_fixes(text, "PAL001")
    write = finding.fixes[0]
    assert write.title == "Write the result to `o_ref`" and write.applicability is Applicability.UNSAFE


def test_missing_output_parameter_is_added_before_scratch_with_a_free_name():
    kernel = "def k(x_ref, acc):\n    o_ref = 1\n    return x_ref[...] + o_ref\n"
    launch = "pl.pallas_call(k, out_shape=S, scratch_shapes=[v])(x)\n"
    assert (
        fixed_kernel(kernel, launch)
        == "def k(x_ref, o2_ref, acc):\n    o_ref = 1\n    o2_ref[...] = x_ref[...] + o_ref\n"
    )


def test_last_statement_constant_return_is_deleted_but_sole_statement_kept():
    assert (
        fixed_kernel("def k(x_ref, o_ref):\n    o_ref[...] = 1\n    return 0\n")
        == "def k(x_ref, o_ref):\n    o_ref[...] = 1\n"
    )
    assert fixed_kernel("def k(x_ref, o_ref):\n    return ()\n") == "def k(x_ref, o_ref):\n    return\n"


def test_noqa_fix_adds_or_extends_the_comment():
    text = (
        HEADER
        + "def k(x_ref, o_ref):\n    return 1\ndef j(x_ref, o_ref):\n    return 1  # noqa: PAL002\npl.pallas_call(k, S)(x)\npl.pallas_call(j, S)(x)\n"
    )
    source = SourceFile.from_text(text, "t.py")
    findings = [f for f in run_rules(analyze(source)) if f.code == "PAL001"]
    noqa = [next(x for x in f.fixes if x.suppression) for f in findings]
    assert all(fix.title == "Disable PAL001 for this line" for fix in noqa)
    assert all(fix.applicability is Applicability.DISPLAY_ONLY and not fix.preferred for fix in noqa)
    new_text, applied = apply_fixes(source, noqa)
    assert applied == 2
    assert "    return 1  # noqa: PAL001\n" in new_text and "    return 1  # noqa: PAL002, PAL001\n" in new_text
    assert [f for f in run_rules(analyze(SourceFile.from_text(new_text, "t.py"))) if f.code == "PAL001"] == []


def test_pal002_no_fix_when_kernel_is_launched_elsewhere_too():
    text = HEADER + "@pl.kernel(mesh=m)\ndef add(a, b):\n    pass\nr = jax.new_ref(x)\nadd(r, r)\nadd(x, y)\n"
    _, [finding], _ = preferred_safe_fixes(text, "PAL002")
    assert [f.title for f in finding.fixes] == ["Disable PAL002 for this line"]


def test_fixes_that_would_not_parse_are_dropped():
    # A default on the parameter before the insertion point would make `o_ref` a syntax error.
    text = HEADER + "def k(x_ref=None):\n    return x_ref[...]\npl.pallas_call(k, out_shape=S)(x)\n"
    _, [finding], _ = preferred_safe_fixes(text, "PAL001")
    assert [f.title for f in finding.fixes] == ["Return None instead", "Disable PAL001 for this line"]


# ------------------------------------------------------------------------ issue 14 mechanics
def test_noqa_for_a_multiline_string_goes_where_the_string_ends_and_silences_it():
    text = HEADER + 'def k(x_ref, o_ref):\n    return """a\nb"""\npl.pallas_call(k, out_shape=S)(x)\n'
    source = SourceFile.from_text(text, "t.py")
    [finding] = [f for f in run_rules(analyze(source)) if f.code == "PAL001"]
    [noqa] = [x for x in finding.fixes if x.suppression]
    new_text = apply_fixes(source, [noqa])[0]
    assert 'b"""  # noqa: PAL001\n' in new_text and 'return """a\n' in new_text
    compile(new_text, "t.py", "exec")
    assert [f for f in run_rules(analyze(SourceFile.from_text(new_text, "t.py"))) if f.code == "PAL001"] == []


def test_noqa_after_a_backslash_continuation_goes_on_the_next_line():
    text = HEADER + "def k(x_ref, o_ref):\n    return x_ref[...] + \\\n        1\npl.pallas_call(k, out_shape=S)(x)\n"
    source = SourceFile.from_text(text, "t.py")
    [finding] = [f for f in run_rules(analyze(source)) if f.code == "PAL001"]
    [noqa] = [x for x in finding.fixes if x.suppression]
    new_text = apply_fixes(source, [noqa])[0]
    assert "        1  # noqa: PAL001\n" in new_text
    assert [f for f in run_rules(analyze(SourceFile.from_text(new_text, "t.py"))) if f.code == "PAL001"] == []


def test_two_results_with_unknown_layout_are_not_dropped_in_bulk():
    text = (
        HEADER
        + "def k(x_ref, a, b):\n    return x_ref[...] + 1, x_ref[...] - 1\ndef f(shape):\n    return pl.pallas_call(k, out_shape=shape)\n"
    )
    _, [finding], _ = preferred_safe_fixes(text, "PAL001")
    [drop] = [x for x in finding.fixes if x.title == "Return None instead"]
    assert drop.applicability is Applicability.DISPLAY_ONLY


def test_output_already_written_prefers_dropping_the_value():
    kernel = "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n    return o_ref[...].sum()\n"
    assert fixed_kernel(kernel) == "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n"


def test_output_written_only_on_another_path_is_not_already_written():
    kernel = "def k(x_ref, o_ref):\n    if c:\n        return x_ref[...]\n    o_ref[...] = 0\n"
    assert (
        fixed_kernel(kernel)
        == "def k(x_ref, o_ref):\n    if c:\n        o_ref[...] = x_ref[...]\n        return\n    o_ref[...] = 0\n"
    )


def test_removed_argument_keeps_its_comment():
    text = HEADER + (
        "@pl.kernel(mesh=m)\ndef add(a_ref,  # source\n        b_ref):\n    pltpu.sync_copy(a_ref, b_ref)\n"
        "r = jax.new_ref(x)\nadd(r,  # once\n    r)\n"
    )
    source = SourceFile.from_text(text, "t.py")
    [finding] = [f for f in run_rules(analyze(source)) if f.code == "PAL002"]
    fix = next(x for x in finding.fixes if x.preferred)
    assert fix.applicability is Applicability.UNSAFE
    new_text = apply_fixes(source, [fix])[0]
    assert "def add(a_ref  # source\n        ):" in new_text and "add(r  # once\n    )" in new_text
    compile(new_text, "t.py", "exec")


def test_fix_that_would_not_compile_is_dropped():
    from pallas_ls.engine.edits import compiles

    assert not compiles("return 1\n") and compiles("def f():\n    return 1\n")


def test_write_in_a_nested_def_nothing_uses_is_not_a_write():
    kernel = "def k(x_ref, o_ref):\n    def unused(i):\n        o_ref[i] = 0\n    return x_ref[...]\n"
    assert (
        fixed_kernel(kernel)
        == "def k(x_ref, o_ref):\n    def unused(i):\n        o_ref[i] = 0\n    o_ref[...] = x_ref[...]\n"
    )


def test_dropping_a_value_keeps_its_effects():
    kernel = (
        "def helper(r):\n    r[...] = 2\n    return 1\n"
        "def k(x_ref, o_ref):\n    pltpu.sync_copy(x_ref, o_ref)\n    if c:\n        return helper(o_ref)\n    o_ref[...] = 1\n"
    )
    text = HEADER + kernel + "pl.pallas_call(k, out_shape=S)(x)\n"
    _, [finding], _ = preferred_safe_fixes(text, "PAL001")
    drop = next(x for x in finding.fixes if x.preferred)
    assert drop.title == "Return None instead" and drop.applicability is Applicability.SAFE
    assert fixed_kernel(kernel) == kernel.replace(
        "        return helper(o_ref)\n", "        helper(o_ref)\n        return\n"
    )


def test_display_only_is_never_applied_by_unsafe_fixes():
    from pallas_ls.fixing import fix_bytes

    example = next(e for e in RULES["PAL001"].invalid_examples if e.name == "two-results-layout-unknown-no-bulk-fix")
    _, file = fix_bytes(example.source.encode(), "t.py", lambda findings: findings, unsafe=True)
    assert file is not None and file.text == example.source
