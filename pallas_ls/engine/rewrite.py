"""Source rewrites that fixes are made of: returns into output-ref writes, dropping a returned
value, adding parameters, removing arguments.  Each returns edits on the original text and keeps
indentation, comments, tabs and line endings as they are."""

from __future__ import annotations

import ast
import io
import sys
import tokenize

from .edits import delete_lines, insert, line_end, line_indent, replace
from .findings import Edit
from .model import FunctionNode, positional_args
from .source import Position, Range, SourceFile

_RETURN = len("return")


# ----------------------------------------------------------------------------- returns
def write_instead_of_return(
    source: SourceFile, ret: ast.Return, outputs: list[str], function: FunctionNode
) -> list[Edit] | None:
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
        writes = [f"{name}[...] = {_standalone(source.segment(v))}" for name, v in zip(outputs, values, strict=False)]
        placed = _place_comments(source, ret_range, values)
        if placed is None:
            return None
        if any(placed) and inline:
            return None  # `if c: return (a,  # x` ...: comments cannot follow `; `-joined writes
        for index, comments in enumerate(placed):
            if comments:
                writes[index] += "  " + "  ".join(comments)
        edits = [replace(ret_range, separator.join(writes))]
    if not in_tail_position(ret, function):
        edits.append(_bare_return_after(source, ret_range, inline))
    return edits


def _standalone(segment: str) -> str:
    """An element of a multi-line tuple as a statement's value: parenthesized when its line
    breaks were only legal inside the tuple's brackets (`a +⏎ b`)."""
    if "\n" not in segment and "\r" not in segment:
        return segment
    try:
        ast.parse(f"_ = {segment}")
        return segment
    except SyntaxError:
        return f"({segment})"


def comments_in(source: SourceFile, r: Range) -> list[tuple[Position, str]] | None:
    """The comments inside `r` (positions and texts), by the tokenizer; None when it cannot tell."""
    first, last = r.start.line, r.end.line
    lines = [source.line_text(i) + "\n" for i in range(first, last + 1)]
    text = "".join(lines)
    if "#" not in text:
        return []
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                at = Position(first + token.start[0] - 1, token.start[1])
                if r.start <= at < r.end:
                    found.append((at, token.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        # The lines end inside brackets opened before `r`: what they hold is not all seen.
        return None if any("#" in line for line in lines) else []
    return found


def _place_comments(source: SourceFile, r: Range, values: list[ast.expr]) -> list[list[str]] | None:
    """For each element of a returned tuple, the comments of the statement that belong with it
    (those on its lines, outside its own text; a comment before the first element goes with the
    first).  Comments inside an element's text stay in its segment."""
    found = comments_in(source, r)
    if found is None:
        return None
    placed: list[list[str]] = [[] for _ in values]
    ranges = [source.node_range(v) for v in values]
    for at, text in found:
        if any(v.start <= at < v.end for v in ranges):
            continue
        index = max((i for i, v in enumerate(ranges) if v.start.line <= at.line), default=0)
        placed[index].append(text)
    return placed


def drop_returned_value(source: SourceFile, ret: ast.Return, function: FunctionNode) -> list[Edit] | None:
    """`return v` -> `return`; the whole statement goes when it is the function's last and alone
    on its lines.  A value that may have effects (`return lax.fori_loop(...)` whose body writes the
    output, `return helper(o_ref)`) is still evaluated: `helper(o_ref)` then `return` (unless
    nothing follows).  Comments inside the value stay, after the `return`.  None: cannot be told."""
    ret_range = source.node_range(ret)
    body = getattr(function, "body", [])
    tail = in_tail_position(ret, function)
    if ret.value is not None and may_have_effects(ret.value):
        inline = _statement_is_inline(source, ret_range.start)
        edits = [replace(_return_keyword_and_space(source, ret_range.start), "")]
        if not tail:
            edits.append(_bare_return_after(source, ret_range, inline))
        return edits
    comments = comments_in(source, ret_range)
    if comments is None:
        return None
    if not comments and body and body[-1] is ret and len(body) > 1 and _alone_on_its_lines(source, ret_range):
        return [delete_lines(source, ret_range.start.line, ret_range.end.line)]
    keyword_end = Position(ret_range.start.line, ret_range.start.column + _RETURN)
    kept = "".join("  " + text for _, text in comments)
    if kept and source.line_text(ret_range.end.line)[ret_range.end.column :].strip():
        return None  # `return (a  # c⏎ )  ; more`: no end of line left to keep the comment on
    return [replace(Range(keyword_end, ret_range.end), kept)]


# Namespaces whose functions compute arrays and do nothing else.
_PURE_NAMESPACES = frozenset({"jnp", "np", "numpy", "math", "jax.numpy"})


def may_have_effects(expr: ast.expr) -> bool:
    """Whether evaluating `expr` may do more than compute a value: any call but `jnp.f(...)` /
    `np.f(...)` / `math.f(...)` and a method of an array read (`o_ref[...].sum()`), any await,
    yield or walrus."""
    for node in ast.walk(expr):
        if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            if not isinstance(func, ast.Attribute):
                return True
            owner = func.value
            dotted = _dotted(owner)
            if dotted in _PURE_NAMESPACES:
                continue
            if isinstance(owner, (ast.Subscript, ast.BinOp, ast.UnaryOp)):
                continue  # a method of an array value (`x_ref[...].sum()`, `(a + b).T`)
            return True
    return False


def _dotted(expr: ast.expr) -> str | None:
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, ast.Name):
        return ".".join([expr.id, *parts[::-1]])
    return None


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
    text = source.text[source.offset(start) :]
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


def _remove_list_item(source: SourceFile, ranges: list[Range], index: int) -> Edit | None:
    """Delete item `index` of a comma-separated list: up to the next item, or from the previous
    one.  Comments in the deleted text stay, each on its line (None when they cannot be told)."""
    if index + 1 < len(ranges):
        deleted = Range(ranges[index].start, ranges[index + 1].start)
    elif index > 0:
        deleted = Range(ranges[index - 1].end, ranges[index].end)
    else:
        deleted = ranges[index]
    comments = comments_in(source, deleted)
    if comments is None:
        return None
    if not comments:
        return replace(deleted, "")
    # Keep each comment and the line break after it; the text after the last break (the next
    # item's indentation) stays as it was.
    kept: list[str] = []
    for at, text in comments:
        kept.append(("  " if kept or at.column > 0 else "") + text + source.line_ending())
    if deleted.end.line == comments[-1][0].line:
        return None  # a comment on the last line of the deleted text: no line break to keep it apart
    return replace(deleted, "".join(kept) + line_indent(source, deleted.end.line))


def rename_uses(source: SourceFile, function: FunctionNode, old: str, new: str) -> list[Edit] | None:
    """Rename every use of `old` in a function's body (nested scopes included).

    None when renaming is not sound: `old` or `new` is bound anywhere in the body by any binding
    form (an assignment, `for`, `with ... as`, a walrus, `del`, `def` / `class`, `import ... as`,
    `except ... as`, a `case` pattern, a nested function's or lambda's parameter, `global` /
    `nonlocal`), or a star import or `locals()` / `vars()` / `eval` / `exec` may see names the
    text does not show.
    """
    body = function.body if isinstance(function.body, list) else [function.body]
    edits = []
    for stmt in body:
        for node in ast.walk(stmt):
            bound = bound_names(node)
            if bound is None or old in bound or new in bound:
                return None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _INTROSPECTION:
                return None
            if isinstance(node, ast.Name) and node.id == old:
                edits.append(replace(source.node_range(node), new))
    return edits


_INTROSPECTION = frozenset({"locals", "vars", "eval", "exec", "globals"})


def bound_names(node: ast.AST) -> frozenset[str] | None:
    """The names `node` itself binds in its scope (None: cannot be told, a star import)."""
    if isinstance(node, ast.Name):
        return frozenset({node.id}) if isinstance(node.ctx, (ast.Store, ast.Del)) else frozenset()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return frozenset({node.name})
    if isinstance(node, ast.arg):
        return frozenset({node.arg})
    if isinstance(node, ast.alias):
        if node.name == "*":
            return None
        return frozenset({node.asname or node.name.split(".")[0]})
    if isinstance(node, ast.ExceptHandler):
        return frozenset({node.name}) if node.name else frozenset()
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return frozenset(node.names)
    if isinstance(node, (ast.MatchAs, ast.MatchStar)):
        return frozenset({node.name}) if node.name else frozenset()
    if isinstance(node, ast.MatchMapping):
        return frozenset({node.rest}) if node.rest else frozenset()
    if sys.version_info >= (3, 12) and isinstance(node, (ast.TypeVar, ast.ParamSpec, ast.TypeVarTuple)):
        return frozenset({node.name})
    return frozenset()
