"""SourceFile: the text of one file, parsed once, with error recovery and position conversion.

Positions inside the engine are 0-based (line, column) pairs counted in code points.  The `ast`
module reports columns in UTF-8 bytes; `SourceFile` converts them.  Front ends convert code
points to whatever they need (1-based columns for the CLI, UTF-16 or UTF-8 units for LSP).
"""

from __future__ import annotations

import ast
import bisect
import itertools
import re
import sys
import warnings
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .cancel import StopCheck, stop_if

BOM = "\ufeff"

# How many times one failing top-level block may be repaired by blanking its offending line.
_MAX_REPAIRS_PER_BLOCK = 12

# Nesting deeper than this makes CPython's parser or our own walkers recurse too far; such a block
# is treated as unparsable instead of letting RecursionError escape.
_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError)


class Position(NamedTuple):
    line: int  # 0-based
    column: int  # 0-based, in code points


class Range(NamedTuple):
    start: Position
    end: Position

    @staticmethod
    def of(line: int, col: int, end_line: int, end_col: int) -> Range:
        return Range(Position(line, col), Position(end_line, end_col))


@dataclass(frozen=True)
class SyntaxProblem:
    """A syntax error found while parsing, at the place the parser reported it."""

    message: str
    range: Range


@dataclass
class SourceFile:
    """One file's text and its parse tree.

    `text` never contains a leading BOM (`had_bom` remembers it); line endings are kept as written.
    `tree` always exists: blocks that do not parse are left out of it and listed in
    `syntax_problems`, so one broken function does not hide the rest of the file.
    """

    text: str
    path: str | None = None
    had_bom: bool = False
    # For a Jupyter notebook: the notebook (engine/notebook.py) whose code cells `text` is.
    notebook: Any = field(default=None, repr=False, compare=False)
    _line_starts: list[int] = field(default_factory=list, repr=False)
    _lines: list[str] | None = field(default=None, repr=False)
    _tree: ast.Module | None = field(default=None, repr=False)
    _problems: list[SyntaxProblem] = field(default_factory=list, repr=False)

    @classmethod
    def from_text(cls, text: str, path: str | None = None) -> SourceFile:
        had_bom = text.startswith(BOM)
        if had_bom:
            text = text[1:]
        return cls(text=text, path=path, had_bom=had_bom)

    @classmethod
    def from_bytes(cls, data: bytes, path: str | None = None) -> SourceFile:
        """Decode UTF-8 (with or without BOM).  Raises UnicodeDecodeError for anything else."""
        return cls.from_text(data.decode("utf-8"), path)

    # ----------------------------------------------------------------------------------- lines
    @property
    def line_starts(self) -> list[int]:
        if not self._line_starts:
            self._line_starts = line_start_offsets(self.text, self.lines)
        return self._line_starts

    @property
    def lines(self) -> list[str]:
        """The lines with their endings, split where Python's tokenizer splits them."""
        if self._lines is None:
            self._lines = split_lines_keepends(self.text)
        return self._lines

    def line_text(self, line: int) -> str:
        """The text of a 0-based line, without its line ending."""
        starts = self.line_starts
        if line < 0 or line >= len(starts):
            return ""
        end = starts[line + 1] if line + 1 < len(starts) else len(self.text)
        return self.text[starts[line] : end].rstrip("\r\n")

    def offset(self, pos: Position) -> int:
        """The index into `text` of a position (clamped to the text)."""
        starts = self.line_starts
        if pos.line >= len(starts):
            return len(self.text)
        return min(starts[pos.line] + pos.column, len(self.text))

    def position_at(self, offset: int) -> Position:
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return Position(line, offset - self.line_starts[line])

    def line_ending(self) -> str:
        """The file's dominant line ending, for edits that insert new lines."""
        crlf = self.text.count("\r\n")
        lf = self.text.count("\n") - crlf
        return "\r\n" if crlf > lf else "\n"

    # ------------------------------------------------------------------ ast position conversion
    def column_from_utf8(self, line: int, byte_col: int) -> int:
        """Convert an `ast` column (UTF-8 bytes, line 0-based) into code points."""
        text = self.line_text(line)
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def node_range(self, node: ast.AST) -> Range:
        """The range of an ast node (which carries 1-based lines and UTF-8 byte columns)."""
        line = node.lineno - 1  # type: ignore[attr-defined]  # statements and expressions: every node given has positions
        end_line = (node.end_lineno or node.lineno) - 1  # type: ignore[attr-defined]  # statements and expressions: every node given has positions
        end_col = node.end_col_offset if node.end_col_offset is not None else node.col_offset  # type: ignore[attr-defined]  # statements and expressions: every node given has positions
        return Range(
            Position(line, self.column_from_utf8(line, node.col_offset)),  # type: ignore[attr-defined]  # statements and expressions: every node given has positions
            Position(end_line, self.column_from_utf8(end_line, end_col)),
        )

    def span_range(self, first: ast.AST, last: ast.AST) -> Range:
        return Range(self.node_range(first).start, self.node_range(last).end)

    def segment(self, node: ast.AST) -> str:
        r = self.node_range(node)
        return self.text[self.offset(r.start) : self.offset(r.end)]

    # ------------------------------------------------------------------------------- parsing
    @property
    def tree(self) -> ast.Module:
        if self._tree is None:
            self._tree, self._problems = parse_with_recovery(self.text)
        return self._tree

    def set_tree(self, tree: ast.Module, problems: list[SyntaxProblem]) -> None:
        """Use a tree parsed elsewhere (incrementally, block by block) for this text."""
        self._tree, self._problems = tree, list(problems)

    @property
    def syntax_problems(self) -> list[SyntaxProblem]:
        self.tree  # noqa: B018 - parse on first use
        return self._problems


_NEWLINE = re.compile(r"\r\n|\r|\n")


# Characters str.splitlines() breaks at that Python's tokenizer does not.
_OTHER_LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def line_start_offsets(text: str, lines: list[str] | None = None) -> list[int]:
    """The offset of every line's first character; lines end at \\r\\n, \\r or \\n (as in Python and LSP)."""
    starts = [0, *itertools.accumulate(map(len, lines if lines is not None else split_lines_keepends(text)))]
    if starts[-1] == len(text) and not text.endswith(("\n", "\r")):
        starts.pop()  # the last line has no ending: no line starts after it
    return starts


def _has_other_line_breaks(text: str) -> bool:
    if text.isascii():  # a few memchr scans instead of a regex over the whole text
        return any(ch in text for ch in "\x0b\x0c\x1c\x1d\x1e")
    return _OTHER_LINE_BREAKS.search(text) is not None


def split_lines_keepends(text: str) -> list[str]:
    """Split at the line endings Python's tokenizer knows (not str.splitlines' form feeds etc.)."""
    if not _has_other_line_breaks(text):
        return text.splitlines(keepends=True) or [""]  # the same lines, ten times faster
    lines, start = [], 0
    for match in _NEWLINE.finditer(text):
        lines.append(text[start : match.end()])
        start = match.end()
    if start < len(text) or not lines:
        lines.append(text[start:])
    return lines


def parse_with_recovery(text: str) -> tuple[ast.Module, list[SyntaxProblem]]:
    """Parse `text`; when it does not parse, keep every top-level block that does.

    Blocks are split at lines that start in column 0.  A block that fails is repaired by blanking
    the line the parser complained about (a few times), so an error inside one method keeps the rest
    of its class.  Code written with Python 3.12+ syntax is normalised first (positions kept) when
    running on an older interpreter.
    """
    error = _try_parse(text)
    if isinstance(error, ast.Module):
        return error, []
    if sys.version_info < (3, 12):
        normalised = normalise_new_syntax(text)
        if normalised != text:
            tree = _try_parse(normalised)
            if isinstance(tree, ast.Module):
                return tree, []
    return _parse_blocks(text)


def _try_parse(text: str) -> ast.Module | SyntaxProblem:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences etc. are not our business
            return ast.parse(text, type_comments=False)
    except _PARSE_ERRORS as exc:
        return _locate(_problem_from(exc), exc, text)


def _locate(problem: SyntaxProblem, exc: BaseException, text: str) -> SyntaxProblem:
    """Python gives no position for a NUL byte or a statement nested too deeply for its parser:
    point at the NUL, or at the first line of the (padded) text, the statement's block."""
    if "null bytes" in str(exc) and "\x00" in text:
        at = text.index("\x00")
        line_start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
        line = text.count("\n", 0, at) + text.count("\r", 0, at) - text.count("\r\n", 0, at)
        column = at - line_start
        return SyntaxProblem(
            "SyntaxError: source code cannot contain null bytes", Range.of(line, column, line, column + 1)
        )
    too_deep = (
        isinstance(exc, (RecursionError, MemoryError)) or "too many nested" in str(exc) or "too complex" in str(exc)
    )
    if too_deep and problem.range.start.line == 0:
        first = len(text) - len(text.lstrip("\r\n"))
        line = text.count("\n", 0, first) + text.count("\r", 0, first) - text.count("\r\n", 0, first)
        return SyntaxProblem(problem.message, Range.of(line, 0, line, 1))
    return problem


def _problem_from(exc: BaseException, line_offset: int = 0) -> SyntaxProblem:
    if isinstance(exc, SyntaxError):
        line = max((exc.lineno or 1) - 1, 0) + line_offset
        col = max((exc.offset or 1) - 1, 0)
        msg = exc.msg or "invalid syntax"
        end_line = (exc.end_lineno - 1 + line_offset) if exc.end_lineno else line
        end_col = (exc.end_offset - 1) if exc.end_offset else col + 1
        if (end_line, end_col) < (line, col):
            end_line, end_col = line, col + 1
        return SyntaxProblem(f"SyntaxError: {msg}", Range.of(line, col, end_line, end_col))
    if isinstance(exc, RecursionError):
        return SyntaxProblem("SyntaxError: too deeply nested to parse", Range.of(line_offset, 0, line_offset, 1))
    return SyntaxProblem(f"SyntaxError: {exc}", Range.of(line_offset, 0, line_offset, 1))


# Lines that continue the previous top-level statement even though they start in column 0.
_CONTINUATION = re.compile(r"(else|elif|except|finally|case)\b|[)\]}]")


def _top_level_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """[start, end) line ranges of top-level statements, decorators kept with what they decorate."""
    blocks: list[tuple[int, int]] = []
    start = 0
    pending_decorator = False
    # Only lines starting in column 0 can start a block; find them in one pass first.
    column_zero = [i for i, line in enumerate(lines) if line and line[0] not in " \t#\r\n\f"]
    for i in column_zero:
        line = lines[i]
        if i == 0:
            pending_decorator = line.startswith("@")
            continue
        if _CONTINUATION.match(line):
            continue  # e.g. the `)` closing a decorator's arguments: the decorator is still pending
        if line.startswith("\\") or lines[i - 1].rstrip("\r\n").endswith("\\"):
            continue  # a backslash joins this line with a neighbour: one logical line, one block
        if pending_decorator:
            pending_decorator = line.startswith("@")
            continue
        if start < i:
            blocks.append((start, i))
        start = i
        pending_decorator = line.startswith("@")
    blocks.append((start, len(lines)))
    return blocks


@dataclass(eq=False)
class ParsedBlock:
    """One top-level block parsed on its own (line numbers are the file's)."""

    stmts: list[ast.stmt]
    problem: SyntaxProblem | None = None
    # The block ends inside a construct that may continue into the next block: "bracket" (an open
    # bracket), "string" (a triple-quoted string) or "line" (a backslash); "" when closed.
    open_at_end: str = ""


BlockKey = tuple[int, str]  # (first line, text)
BlockCache = dict[BlockKey, ParsedBlock]  # parsed top-level blocks, reused by the next parse


# Column-0 lines that no bracket can continue over: statements that are not expressions.  An open
# bracket before one of them is an error of the block above it (what typing `foo(` leaves).
_HARD_START = re.compile(
    r"(?:async[ \t]+)?(?:def|class)\b|(?:import|try|while|with|return|pass|raise|del|global|nonlocal|assert"
    r"|break|continue)\b|from[ \t]+[\w.]+[ \t]+import\b|@"
)
_DEF_OR_CLASS = re.compile(r"(?:async[ \t]+)?(?:def|class)\b")
# What may follow a string's closing quote on its line in valid code: not a name (but for these
# keywords, or a string prefix).
_NAME_AFTER = re.compile(r"[ \t]*([^\W\d]\w*)")
_KEYWORDS_AFTER_STRING = frozenset({"and", "or", "not", "in", "is", "if", "else", "for", "async"})


def parse_blocks(
    text: str, cache: BlockCache | None = None, lines: list[str] | None = None, should_stop: StopCheck = None
) -> list[tuple[BlockKey, ParsedBlock]]:
    """Parse `text` block by block, reusing `cache` ((first line, text) -> ParsedBlock).

    A block that ends inside a bracket or string is merged with the next one until it parses or
    closes, so a construct across column-0 lines (a docstring with unindented lines, arguments in
    column 0) parses as it does in the whole file.  The merging is local, whatever the error: an
    open bracket never runs over a column-0 line that starts a statement no bracket can hold (a
    `def`, a decorated def, an `import`, ...), and an open string runs over one only when the
    string's closing quote (found in the text) makes the merged block parse; otherwise the block
    stays the broken one and the blocks after it parse on their own.  A block that still fails is
    repaired (see _parse_block_repairing).  When every block parses, the statements are exactly
    the whole file's.  `should_stop` is asked before each block (engine/cancel.py); it changes
    nothing but `cache`.
    """
    cache = cache if cache is not None else {}
    lines = lines if lines is not None else split_lines_keepends(text)
    spans = _top_level_blocks(lines)
    moved = _MovedBlocks(cache)
    result: list[tuple[BlockKey, ParsedBlock]] = []
    i = 0
    while i < len(spans):
        stop_if(should_stop)
        start, end = spans[i]
        key = (start, "".join(lines[start:end]))
        block = _cached_block(key, cache, moved)
        before_jump = None  # (i, key, block) before the first merge over a hard span
        while block.problem is not None and block.open_at_end and i + 1 < len(spans):
            nxt: int | None
            if block.open_at_end == "line" or not _is_hard(spans[i + 1], lines):
                nxt = i + 1
            else:
                nxt = _string_jump(block, start, i, spans, lines)
                if nxt is None:
                    break
                before_jump = before_jump or (i, key, block)
            i = nxt
            key = (start, "".join(lines[start : spans[i][1]]))
            block = _cached_block(key, cache, moved)
        if block.problem is not None and before_jump is not None:
            i, key, block = before_jump  # the jump made nothing parse: the error stays in its block
        result.append((key, _repaired(key, block, cache)))
        i += 1
    return result


def _is_hard(span: tuple[int, int], lines: list[str]) -> bool:
    """A span no open bracket can continue into (a decorator counts when it decorates a def)."""
    first = lines[span[0]]
    if not _HARD_START.match(first):
        return False
    return first[0] != "@" or any(_DEF_OR_CLASS.match(line) for line in lines[span[0] + 1 : span[1]])


def _string_jump(block: ParsedBlock, start: int, i: int, spans: list[tuple[int, int]], lines: list[str]) -> int | None:
    """The index of the span holding the closing quote of the string `block` ends in, or None when
    that quote cannot close it in valid code: a name follows it (a docstring's opening quote and its first
    words), or the text up to the quote's line fails with an error of its own.  Costs one
    parse of the block and the string (which the tokenizer skips over), never of the rest."""
    if block.open_at_end != "string" or block.problem is None:
        return None
    at = block.problem.range.start
    if at.line >= len(lines):
        return None
    close = _string_close(lines, at.line, at.column)
    if close is None:
        return None
    line, after = close
    tail = lines[line][after:]
    name = _NAME_AFTER.match(tail)
    if name and name.group(1) not in _KEYWORDS_AFTER_STRING and tail[name.end() : name.end() + 1] not in ("'", '"'):
        return None  # the quote opens a docstring (its words follow); it closes no string
    text_so_far = "".join(lines[start : line + 1])
    so_far = _try_parse("\n" * start + text_so_far)
    if not isinstance(so_far, ast.Module):
        kind = _open_kind(so_far, start, text_so_far)
        if not kind or (kind == "string" and so_far.range.start.line != line):
            return None  # an error before the statement could go on: the quote closes nothing
    nxt = i + 1
    while nxt + 1 < len(spans) and spans[nxt][1] <= line:
        nxt += 1
    return nxt


def _string_close(lines: list[str], line: int, column: int) -> tuple[int, int] | None:
    """(line, column after it) of the quote closing the triple-quoted string that starts at
    (line, column) (its prefix included), or None when it never closes."""
    first = lines[line]
    quote_at = min((at for at in (first.find('"""', column), first.find("'''", column)) if at >= 0), default=-1)
    if quote_at < 0:
        return None
    quote = first[quote_at : quote_at + 3]
    rest = "".join(lines[line:])  # one search over the rest, at the speed of str.find
    offset = quote_at + 3
    while True:
        found = rest.find(quote, offset)
        if found < 0:
            return None
        backslashes = found - len(rest[max(found - 64, 0) : found].rstrip("\\")) - max(found - 64, 0)
        if backslashes % 2 == 0:
            break
        offset = found + 1
    ends = list(itertools.accumulate(map(len, lines[line:])))
    index = bisect.bisect_right(ends, found)
    return line + index, found + 3 - (ends[index - 1] if index else 0)


def blocks_of_tree(text: str, tree: ast.Module, lines: list[str] | None = None) -> BlockCache:
    """The block cache `parse_blocks` would build, taken from a whole-file parse of `text`.

    Parsing block by block pads each block with newlines to keep line numbers, which costs twice a
    whole-file parse over a big file; a document's first version is parsed whole and split here.
    Spans are merged until each holds whole statements (a string may run over column-0 lines),
    so every entry is exactly what parsing its text would give.
    """
    lines = lines if lines is not None else split_lines_keepends(text)
    spans = _top_level_blocks(lines)
    stmts = list(tree.body)
    cache: BlockCache = {}
    index = i = 0
    while i < len(spans):
        start, end = spans[i]
        block: list[ast.stmt] = []
        while index < len(stmts) and _first_line(stmts[index]) < end:
            stmt = stmts[index]
            block.append(stmt)
            index += 1
            while (stmt.end_lineno or stmt.lineno) > end and i + 1 < len(spans):
                i += 1  # the statement runs into the next span: merge it
                end = spans[i][1]
        cache[(start, "".join(lines[start:end]))] = ParsedBlock(block)
        i += 1
    return cache


def _first_line(stmt: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(stmt, "decorator_list", [])
    return min([stmt.lineno] + [d.lineno for d in decorators]) - 1


class _MovedBlocks:
    """Cached blocks by text alone, for blocks that only moved (lines inserted or removed above)."""

    def __init__(self, cache: BlockCache):
        self._cache = cache
        self._by_text: dict[str, list[int]] | None = None
        # Blocks this parse already placed: a block whose text now appears twice (a def pasted
        # below itself) stays where it was found and is not moved to the copy as well.
        self.used: set[int] = set()

    def take(self, start: int, text: str) -> ParsedBlock | None:
        """A cached block with this text at another line, moved to `start` (and out of the cache)."""
        if self._by_text is None:
            self._by_text = {}
            for old_start, old_text in self._cache:
                self._by_text.setdefault(old_text, []).append(old_start)
        starts = self._by_text.get(text)
        block: ParsedBlock | None = None
        while starts and block is None:
            old_start = starts.pop()
            block = self._cache.get((old_start, text))
            if block is not None and id(block) in self.used:
                block = None
        if block is None or block.problem is not None:
            return None  # a block with an error is parsed again: its message names line numbers
        del self._cache[(old_start, text)]
        for stmt in block.stmts:
            # In place and linear, where re-parsing the block padded with newlines to its new first
            # line would make an edit near the top of a big file quadratic.
            ast.increment_lineno(stmt, start - old_start)
        return block


def _cached_block(key: BlockKey, cache: BlockCache, moved: _MovedBlocks | None = None) -> ParsedBlock:
    block = cache.get(key)
    if block is None:
        block = (moved.take(*key) if moved is not None else None) or _parse_block(*key)
        cache[key] = block
    if moved is not None:
        moved.used.add(id(block))
    return block


def _parse_block(start: int, text: str) -> ParsedBlock:
    result = _try_parse("\n" * start + text)  # padding keeps ast line numbers file-relative
    if not isinstance(result, ast.Module) and sys.version_info < (3, 12):
        normalised = normalise_new_syntax(text)
        if normalised != text:
            retry = _try_parse("\n" * start + normalised)
            result = retry if isinstance(retry, ast.Module) else result
    if isinstance(result, ast.Module):
        return ParsedBlock(result.body)
    return ParsedBlock([], result, open_at_end=_open_kind(result, start, text))


def _decorator_without_def(start: int, text: str, problem: SyntaxProblem) -> str:
    """ "line" for decorators that the text ends before their def or class (a decorator whose
    triple-quoted string a later block closes, then ` + 1`): the next span is what they decorate,
    whatever it starts with (issue 33: the blocks were left apart, each with an error that a
    whole-file parse does not have)."""
    if not text.lstrip().startswith("@") or problem.message != "SyntaxError: invalid syntax":
        return ""
    # CPython puts the end of the text on its last line, column 0, or on the line after it.
    last_line = start + len(text.rstrip().splitlines()) - 1
    at = problem.range.start
    return "line" if at.line > last_line or (at.line == last_line and at.column == 0) else ""


def _repaired(key: BlockKey, block: ParsedBlock, cache: BlockCache) -> ParsedBlock:
    """A block that does not parse: keep what repairs recover, and its first problem."""
    if block.problem is None or block.stmts:
        return block
    start, text = key
    normalised = normalise_new_syntax(text)
    known = block.problem if normalised == text else None  # the parse of this very text failed so
    tree, problem = _parse_block_repairing(split_lines_keepends(normalised), start, known)
    repaired = ParsedBlock(tree.body if tree is not None else [], problem or block.problem, block.open_at_end)
    cache[key] = repaired
    return repaired


_OPEN_BRACKET = re.compile(r"SyntaxError: '.' was never closed")
_OPEN_STRING = re.compile(r"SyntaxError: unterminated triple-quoted (?:f-)?string literal")


def _open_kind(problem: SyntaxProblem, start: int, text: str) -> str:
    """ "bracket" or "string" when the parser stopped at the end of `text` (its first line is
    `start`) inside one (CPython reports such tokenizer errors before any other: the message says
    it, with no tokenizing of ours); "line" when the next line belongs to it whatever it holds;
    else ""."""
    if _OPEN_STRING.match(problem.message):
        return "string"
    if _OPEN_BRACKET.match(problem.message):
        return "bracket"
    if problem.message == "SyntaxError: unexpected EOF while parsing":
        return "line"  # a backslash at the end: the next line is joined to it, whatever it holds
    return _decorator_without_def(start, text, problem)


def _parse_blocks(text: str) -> tuple[ast.Module, list[SyntaxProblem]]:
    blocks = [block for _, block in parse_blocks(text)]
    body = [stmt for block in blocks for stmt in block.stmts]
    problems = [block.problem for block in blocks if block.problem is not None]
    return ast.Module(body=body, type_ignores=[]), problems


def _parse_block_repairing(
    block: list[str], first_line: int, known: SyntaxProblem | None = None
) -> tuple[ast.Module | None, SyntaxProblem | None]:
    """Parse one block; on failure repair the offending line and retry a few times.  `known`: the
    problem a parse of exactly this block already gave (not parsed again)."""
    first_problem: SyntaxProblem | None = None
    block = list(block)
    for attempt in range(_MAX_REPAIRS_PER_BLOCK):
        if attempt == 0 and known is not None:
            result: ast.Module | SyntaxProblem = known
        else:
            result = _try_parse("\n" * first_line + "".join(block))  # keeps ast line numbers file-relative
        if isinstance(result, ast.Module):
            return result, first_problem
        if first_problem is None:
            first_problem = result
        if not _repair(block, result, first_line):
            break
    return None, first_problem


def _repair(block: list[str], problem: SyntaxProblem, first_line: int) -> bool:
    """Change the block where `problem` says it goes wrong, the least that can make it parse
    (False: nothing left to change).  Each repair costs a parse of the block, so the ones typing
    produces take one: a string left open loses what follows its quote, and a bracket typed at
    the end of a line goes, not the line (blanking a line `    )` with a triple quote typed
    after it would unclose the call that `)` closed, and every line of that call would then be
    an unexpected indent, one parse each); lines indented under a blanked line go together."""
    bad = problem.range.start.line - first_line
    column = problem.range.start.column
    line = block[bad] if 0 <= bad < len(block) else ""
    # (Each checked at the column, which a tokenizer error might give in other units.)
    string_left_open = _OPEN_STRING.match(problem.message) and line[column:].lstrip("rRbBfFuU")[:3] in ('"""', "'''")
    # A bracket typed last on its line (`foo(`): the line as it was before it was typed.
    bracket_just_typed = (
        _OPEN_BRACKET.match(problem.message)
        and line[column : column + 1] in ("(", "[", "{")
        and not line[column + 1 :].strip()
    )
    if (string_left_open or bracket_just_typed) and line[:column].strip():
        block[bad] = line[:column].rstrip() + _ending(line)
        return True
    above = next((block[i] for i in range(bad - 1, -1, -1) if block[i].strip()), "") if 0 <= bad < len(block) else ""
    own = _indentation(line)
    if problem.message.endswith(": unindent does not match any outer indentation level"):
        # A space deleted (or typed) at the start of a line: to the nearest level above it.
        levels = {_indentation(b) for b in block[:bad] if b.strip()}
        if levels:
            _dedent(block, bad, own - min(levels, key=lambda level: (abs(level - own), level)))
            return True
    if problem.message.endswith(": unexpected indent") and above:
        if above.strip() == "pass":
            # Under a header blanked by an earlier repair: the body goes with it (moved up a
            # level, a nested def's `return 1` would be the kernel's).
            for i in _indented_run(block, bad):
                block[i] = _ending(block[i])
        else:
            _dedent(block, bad, own - _indentation(above))  # a space typed at the start of a line
        return True
    if not 0 <= bad < len(block) or not block[bad].strip():
        # The parser pointed past the block or at a blank line (an unclosed bracket, usually):
        # blank the last non-empty line instead, which is where such blocks go wrong.
        bad = max((i for i, line in enumerate(block) if line.strip()), default=-1)
        if bad < 0:
            return False
    block[bad] = _neutral_line(block[bad])
    return True


def _dedent(block: list[str], at: int, by: int) -> None:
    """Line `at`, `by` columns to the left (right if < 0); the lines under it need not move (a
    body indented deeper than its header is valid however deep, continuations any way)."""
    block[at] = block[at][by:] if by >= 0 else " " * -by + block[at]


def _indented_run(block: list[str], first: int) -> range:
    """Line `first` and the lines after it indented at least as much (its body, its continuation)."""
    indent = _indentation(block[first])
    end = first + 1
    while end < len(block) and (not block[end].strip() or _indentation(block[end]) >= indent):
        end += 1
    return range(first, end)


def _indentation(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _ending(line: str) -> str:
    return "\n" if line.endswith(("\n", "\r")) else ""


def _neutral_line(line: str) -> str:
    """Replace a line with `pass` at its own indentation (keeping the block structure) or blank it."""
    stripped = line.lstrip(" \t")
    indent = line[: len(line) - len(stripped)]
    ending = "\n" if line.endswith(("\n", "\r")) else ""
    if stripped.strip() in ("", "pass"):
        return ending
    return f"{indent}pass{ending}"


# ---------------------------------------------------------------------- Python 3.12+ syntax
_TYPE_ALIAS = re.compile(r"^([ \t]*)type([ \t]+)([A-Za-z_]\w*)(?=[ \t]*(\[|=))", re.MULTILINE)
_GENERIC_HEADER = re.compile(r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+[A-Za-z_]\w*[ \t]*\[", re.MULTILINE)


def normalise_new_syntax(text: str) -> str:
    """Rewrite PEP 695 syntax into equivalent-shaped older syntax, keeping every position.

    `type X[T] = v` becomes `X     [T] = v`; `def f[T](x)` becomes `def f   (x)`.  Only the shape
    matters to us (the kernels and names inside), and the positions of values must stay exact.
    """
    text = _TYPE_ALIAS.sub(lambda m: m.group(1) + m.group(3) + " " * (4 + len(m.group(2))), text)
    chars = list(text)
    for match in _GENERIC_HEADER.finditer(text):
        open_at = match.end() - 1
        close_at = _matching_bracket(text, open_at)
        if close_at is None:
            continue
        for i in range(open_at, close_at + 1):
            if chars[i] not in "\r\n":
                # A multi-line parameter list: its line breaks are outside brackets once they are
                # blanked, so each broken line is continued with a backslash in its last column.
                chars[i] = "\\" if text[i + 1 : i + 2] in ("\r", "\n") else " "
    return "".join(chars)


def _matching_bracket(text: str, open_at: int) -> int | None:
    depth = 0
    for i in range(open_at, min(len(text), open_at + 2000)):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return None
