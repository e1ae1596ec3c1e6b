"""Source rewrites that fixes are made of: returns into output-ref writes, dropping a returned
value, adding parameters, removing arguments.  Each returns edits on the original text and keeps
indentation, comments, tabs and line endings as they are."""

from __future__ import annotations

import ast
from typing import Iterator

from .edits import delete_lines, insert, line_end, line_indent, replace
from .findings import Edit
from .model import FunctionNode, positional_args
from .source import Position, Range, SourceFile

_RETURN = len("return")


# ----------------------------------------------------------------------------- returns
def write_instead_of_return(source: SourceFile, ret: ast.Return, outputs: list[str], function: FunctionNode) -> list[Edit] | None:
    """`return v` -> `o_ref[...] = v` (`return a, b` -> one write per output), keeping control flow.

    None when the returned tuple does not match the outputs.
    """
    value = ret.value
    assert value is not None
    values = value.elts if isinstance(value, ast.Tuple) else [value]
    if len(values) != len(outputs) or any(isinstance(v, ast.Starred) for v in values):
        return None
    ret_range = source.node_range(ret)
    start = ret_range.start
    inline = _statement_is_inline(source, start)
    separator = "; " if inline else source.line_ending() + line_indent(source, start.line)
    if not isinstance(value, ast.Tuple):
        edits = [replace(_return_keyword_and_space(source, start), f"{outputs[0]}[...] = ")]
    else:
        writes = separator.join(f"{name}[...] = {source.segment(v)}" for name, v in zip(outputs, values))
        edits = [replace(ret_range, writes)]
    if not in_tail_position(ret, function):
        edits.append(_bare_return_after(source, ret_range, inline))
    return edits


def drop_returned_value(source: SourceFile, ret: ast.Return, function: FunctionNode) -> Edit:
    """`return v` -> `return`; the whole statement goes when it is the function's last and alone on its lines."""
    ret_range = source.node_range(ret)
    body = getattr(function, "body", [])
    if body and body[-1] is ret and len(body) > 1 and _alone_on_its_lines(source, ret_range):
        return delete_lines(source, ret_range.start.line, ret_range.end.line)
    keyword_end = Position(ret_range.start.line, ret_range.start.column + _RETURN)
    return replace(Range(keyword_end, ret_range.end), "")


def _return_keyword_and_space(source: SourceFile, start: Position) -> Range:
    """`return` and the blanks after it (not the value: it may start with a parenthesis)."""
    line = source.line_text(start.line)
    end = start.column + _RETURN
    while end < len(line) and line[end] in " \t":
        end += 1
    return Range(start, Position(start.line, end))


def _bare_return_after(source: SourceFile, ret_range: Range, inline: bool) -> Edit:
    if inline:
        return insert(ret_range.end, "; return")
    indent = line_indent(source, ret_range.start.line)
    return insert(line_end(source, ret_range.end.line), source.line_ending() + indent + "return")


def _statement_is_inline(source: SourceFile, start: Position) -> bool:
    """True for `if c: return v`, where the statement shares its line with what precedes it."""
    return source.line_text(start.line)[: start.column].strip() != ""


def _alone_on_its_lines(source: SourceFile, r: Range) -> bool:
    before = source.line_text(r.start.line)[: r.start.column]
    after = source.line_text(r.end.line)[r.end.column :]
    return before.strip() == "" and after.strip() == ""


def in_tail_position(stmt: ast.stmt, function: FunctionNode) -> bool:
    """True when nothing of the function runs after `stmt` (so dropping a `return` there changes nothing)."""
    body = getattr(function, "body", None)
    while body:
        last = body[-1]
        if last is stmt:
            return True
        branches = _branches(last)
        body = next((b for b in branches if _contains(b, stmt)), None)
    return False


def _branches(stmt: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(stmt, ast.If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [stmt.body]
    if hasattr(ast, "Match") and isinstance(stmt, ast.Match):
        return [case.body for case in stmt.cases]
    return []


def _contains(body: list[ast.stmt], target: ast.AST) -> bool:
    return any(node is target for stmt in body for node in ast.walk(stmt))


# -------------------------------------------------------------------------- parameters
def insert_parameter(source: SourceFile, function: FunctionNode, index: int, name: str) -> Edit | None:
    """Add a positional parameter so it becomes the `index`-th one."""
    args = positional_args(function)
    if function.args.vararg is not None:
        return None
    if index < len(args):
        return insert(source.node_range(args[index]).start, f"{name}, ")
    if args:
        defaults = function.args.defaults
        last = defaults[-1] if defaults else args[-1]  # a default belongs to the last parameter
        return insert(source.node_range(last).end, f", {name}")
    return _insert_first_parameter(source, function, name)


def _insert_first_parameter(source: SourceFile, function: FunctionNode, name: str) -> Edit | None:
    start = source.node_range(function).start
    text = source.text[source.offset(start):]
    has_others = bool(function.args.kwonlyargs or function.args.kwarg)
    if isinstance(function, ast.Lambda):
        return insert(Position(start.line, start.column + len("lambda")), f" {name}" + ("," if has_others else ""))
    open_paren = text.find("(", text.find(function.name))
    if open_paren < 0:
        return None
    at = source.position_at(source.offset(start) + open_paren + 1)
    return insert(at, name + (", " if has_others else ""))


def remove_parameter(source: SourceFile, function: FunctionNode, index: int) -> Edit | None:
    """Delete the `index`-th positional parameter and its separating comma."""
    args = positional_args(function)
    if not 0 <= index < len(args):
        return None
    return _remove_list_item(source, [source.node_range(a) for a in args], index)


def remove_argument(source: SourceFile, call: ast.Call, index: int) -> Edit | None:
    """Delete the `index`-th positional argument of a call and its separating comma."""
    ranges = [source.node_range(a) for a in call.args]
    return _remove_list_item(source, ranges, index)


def _remove_list_item(source: SourceFile, ranges: list[Range], index: int) -> Edit:
    """Delete item `index` of a comma-separated list: up to the next item, or from the previous one."""
    if index + 1 < len(ranges):
        return replace(Range(ranges[index].start, ranges[index + 1].start), "")
    if index > 0:
        return replace(Range(ranges[index - 1].end, ranges[index].end), "")
    return replace(ranges[index], "")


def rename_uses(source: SourceFile, function: FunctionNode, old: str, new: str) -> list[Edit] | None:
    """Rename every use of `old` in a function (its nested scopes included, unless they rebind it).

    None when renaming is not safe: `old` is assigned in the function, or `new` is bound anywhere
    inside it (a nested def, an assignment), which would capture the renamed uses.
    """
    edits = []
    for node, scope_binds_new in _names_in(function):
        if node.id == new and isinstance(node.ctx, ast.Store):
            return None
        if node.id != old:
            continue
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            return None
        if scope_binds_new:
            return None
        edits.append(replace(source.node_range(node), new))
    return edits


def _names_in(function: FunctionNode) -> Iterator[tuple[ast.Name, bool]]:
    """Name nodes of a function body, with whether a nested scope on the way binds a parameter."""
    body = function.body if isinstance(function.body, list) else [function.body]
    stack: list[tuple[ast.AST, bool]] = [(stmt, False) for stmt in body]
    while stack:
        node, shadowed = stack.pop()
        if isinstance(node, ast.Name):
            yield node, shadowed
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            shadowed = True  # conservative: nested scopes may rebind; renames there are refused
        stack.extend((child, shadowed) for child in ast.iter_child_nodes(node))
