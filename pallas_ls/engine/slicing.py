"""The top-level blocks of a module that can matter to its kernels, found from the text alone.

A document's first analysis has to parse the whole file, and `ast.parse` alone costs ~10 ms per
1,000 lines: on a 5,000-line module that is most of the time before the first diagnostics.  Most
of a big module usually has nothing to do with kernels, so the server first analyses only the
*kernel slice* of the text, publishes those findings, then analyses the whole file.

The slice is a closure over top-level blocks (the spans `source._top_level_blocks` gives), kept
conservative so the findings on it equal the whole file's (the tests check this on every rule
example and on jax's own Pallas code):

- seeds: blocks that name a launch API as an attribute (`pl.pallas_call`, `plgpu.emit_pipeline`,
  `pltpu.core_map` ...), import one by name, or define a kernel another file launches;
- launch-bearing blocks: the seeds, and every block that mentions a name a launch-bearing block
  defines (a wrapper forwarding its kernel, an alias of `pallas_call`, a decorated kernel called
  with the same ref twice), transitively;
- dependencies: every block that may bind a name a selected block mentions (kernel definitions,
  factories, helpers, constants, imports), transitively.

"May bind" is read from the text: `def`/`class` bind their name, imports their imported names,
an assignment the names left of its `=`, a statement starting `name.append(...)` (`.extend`, `.insert`,
`.update`, `.setdefault`, `.add`) that name; any other statement (`if`, `for`, `try`, an assignment
with a walrus...) is taken to bind every name it mentions.  Strings and comments count as
mentions; that only makes the slice bigger.  The slice is None (analyse the whole file) where the
text is beyond this reading: a triple-quoted string left open, or a star import.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from .callbacks import APIS
from .names import ENTRY_POINTS
from .source import _top_level_blocks, line_start_offsets

# The last part of every launch (and callback API) qualified name: a launch must say one of these
# (as an attribute, or as a name it imported), or use a name bound by a block that does.
LAUNCH_NAMES = frozenset(name.rsplit(".", 1)[1] for name in ENTRY_POINTS)
CALLBACK_NAMES = frozenset(name.rsplit(".", 1)[1] for api in APIS for name in api.qualnames) - LAUNCH_NAMES


_PLATFORM_IMPORT = re.compile(
    r"pallas(?:\.(?:tpu|triton|mosaic_gpu|gpu)\b|[ \t]+import[ \t(][^\n]*\b(?:tpu|triton|mosaic_gpu|gpu)\b)"
)


def _word(names: frozenset[str]) -> re.Pattern[str]:
    return re.compile(r"\b(?:{})\b".format("|".join(sorted(names))))


def _attribute(names: frozenset[str]) -> re.Pattern[str]:
    return re.compile(r"\.[ \t]*(?:{})\b".format("|".join(sorted(names))))


_API_WORD = _word(LAUNCH_NAMES | CALLBACK_NAMES)
_LAUNCH_WORD = _word(LAUNCH_NAMES)
_LAUNCH_ATTRIBUTE = _attribute(LAUNCH_NAMES)
_CALLBACK_ATTRIBUTE = _attribute(CALLBACK_NAMES)
_API_ATTRIBUTE = _attribute(LAUNCH_NAMES | CALLBACK_NAMES)
# An import that names an API: on one line (backslash continuations included) or in parentheses.
# (It starts with a literal so that `re` looks for "import" instead of trying every position.)
_API_IMPORT = re.compile(
    r"import(?:(?:[^\n(]|\\\n)*\b(?:%s)\b|[ \t]*\([^)]*\b(?:%s)\b)"
    % (("|".join(sorted(LAUNCH_NAMES | CALLBACK_NAMES)),) * 2)
)
_ONE_LINE_STRING = re.compile(r'[rRbBuUfF]{0,2}(?:"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\')')

_IDENTIFIER = re.compile(r"[^\W\d]\w*")
_COMMENT_LINE = re.compile(r"^[ \t]*#.*$", re.MULTILINE)
_DEF = re.compile(r"(?:async[ \t]+)?(?:def|class)[ \t]+([^\W\d]\w*)")
_DECORATOR = re.compile(r"[ \t]*@")
_IMPORT = re.compile(r"(?:from[ \t]+[.\w \t]+?[ \t])?import[ \t(]")
_ASSIGNMENT = re.compile(r"([\w \t,.*()\[\]]+?)(?::[^=\n]*)?(?:[-+*/%&|^@<>]{0,3})=(?!=)")
# Statements that bind names in ways the text does not show: `for x in`, `with ... as x`,
# `except E as x`, `match` captures, the statements under `if`/`try`/`while`, `del`, `type`.
_BINDING_KEYWORDS = frozenset(
    {"if", "for", "while", "try", "with", "match", "async", "del", "type", "global", "nonlocal"}
)
_NESTED_IMPORT = re.compile(r"^[ \t]+(?:from[ \t]|import[ \t])", re.MULTILINE)
_MULTILINE_IMPORT = re.compile(r"\bimport[ \t]*\(|\bimport\b[^\n]*\\\n")
_LAST_LONE_EQUALS = re.compile(r"(.*)(?<![=!<>:])=(?!=)")  # `x = 1`, `x += 1`, `a = b = 1`, not `==`
_FOR_TARGET = re.compile(r"\bfor\b(.*?)\bin\b")
_FOR_WITHOUT_IN = re.compile(r"\bfor\b(?!.*\bin\b)")
_AS_TARGET = re.compile(r"\bas\b([\w \t,()\[\]]*)")
_DEF_NAME = re.compile(r"\b(?:def|class|type)[ \t]+(\w+)")
_WHOLE_LINE_BINDS = re.compile(r"[ \t]*(?:import|from|del|global|nonlocal|case)\b")
_GLOBAL = re.compile(r"\b(?:global|nonlocal)[ \t]+([\w \t,]+)")

# Strings and comments, in source order, to find the triple-quoted strings that run over lines.
_STRING_OR_COMMENT = re.compile(r'#[^\n]*|("""|\'\'\')|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
_TRIPLE_END = {
    '"""': re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.DOTALL),
    "'''": re.compile(r"(?:[^'\\]|\\.|'(?!''))*'''", re.DOTALL),
}


@dataclass
class _Block:
    start: int  # first line (0-based)
    end: int  # one past the last line
    text: str
    # Who uses the names this block binds matters: it launches a kernel (callers of a wrapper, of
    # a decorated kernel, of an alias), or it binds a callback API under another name.
    launch_bearing: bool = False
    # Callers of the function it defines do not matter (a callback body is never followed
    # through a wrapper's parameter), but users of other names it binds do.
    callback_only: bool = False

    @cached_property
    def code(self) -> str:
        """The text without its comment lines."""
        return _COMMENT_LINE.sub("", self.text).lstrip("\n\r")

    @cached_property
    def mentions(self) -> frozenset[str]:
        """Every identifier in the block, strings included, comment lines left out."""
        return frozenset(_IDENTIFIER.findall(self.code))

    @cached_property
    def defined_name(self) -> str | None:
        """The name a (decorated) `def` or `class` block defines; None for other statements."""
        header = _definition_header(self.code)
        name = _DEF.match(header) if header is not None else None
        return name.group(1) if name is not None else None

    @cached_property
    def binds(self) -> frozenset[str]:
        """The module-level names this block may bind (a superset)."""
        return _names_bound(self)


def _code_only(block: _Block) -> str:
    """The block without comment lines and one-line strings (a launch API named in an error
    message is no launch)."""
    return _ONE_LINE_STRING.sub('""', block.code)


_GROWN = re.compile(r"([A-Za-z_]\w*)\s*\.\s*(?:append|extend|insert|update|setdefault|add)\s*\(")


def _names_bound(block: _Block) -> frozenset[str]:
    code = block.code
    if block.defined_name is not None:
        # `global x` inside a function binds the module's x; the rest of the body is local.
        declared = {n for names in _GLOBAL.findall(code) for n in _IDENTIFIER.findall(names)}
        return frozenset({block.defined_name} | declared)
    if ":=" not in code and ";" not in code:
        if _IMPORT.match(code):
            return _imported_names(code, block)
        targets = _assignment_targets(code)
        if targets is not None:
            return targets
        first_word = _IDENTIFIER.match(code)
        grown = _GROWN.match(code)
        if grown is not None:
            # `shapes.append(S)` changes the list a module name holds (the interpreter reads
            # lists grown with `.append`), so it counts as binding that name.
            return frozenset({grown.group(1)})
        if first_word is None or first_word.group(0) not in _BINDING_KEYWORDS:
            return frozenset()  # an expression statement (a call, `assert`, `raise`, `pass`) binds nothing
        return _compound_bindings(code, block)
    return block.mentions


def _compound_bindings(code: str, block: _Block) -> frozenset[str]:
    """Names that `if`/`for`/`with`/`try`/`while`/`match` statements may bind, line by line: left of
    an `=`, between `for` and `in`, after `as`, in `def`/`class`/`import`/`del`/`global`/`case`."""
    if _MULTILINE_IMPORT.search(code):
        return block.mentions
    names: set[str] = set()
    for line in code.splitlines():
        targets = _assigned_part(line)
        if targets is not None:
            names.update(_IDENTIFIER.findall(targets))
        for pattern in (_FOR_TARGET, _AS_TARGET, _DEF_NAME):
            for found in pattern.findall(line):
                names.update(_IDENTIFIER.findall(found))
        if _IMPORT.match(line.lstrip()) and "(" not in line and not line.rstrip().endswith("\\"):
            names.update(_imported_names(line.strip(), block))  # `from a.b import c as d` binds `d` only
        elif _FOR_WITHOUT_IN.search(line) or _WHOLE_LINE_BINDS.match(line):
            names.update(_IDENTIFIER.findall(line))
    return frozenset(names)


def _assigned_part(line: str) -> str | None:
    """The text left of the line's last `=` outside brackets (`out = f(x, interpret=True)` binds
    `out`, not `interpret`); None when it has none."""
    if _LAST_LONE_EQUALS.match(line) is None:
        return None
    depth, last = 0, None
    for i, ch in enumerate(line):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif (
            ch == "=" and depth <= 0 and line[i + 1 : i + 2] != "=" and line[i - 1 : i] not in ("=", "!", "<", ">", ":")
        ):
            last = i
    return line[:last] if last is not None else None


def _assignment_targets(code: str) -> frozenset[str] | None:
    """The names in the targets of `a = b = value` (or `a += 1`, `a: T = v`); None: not an assignment."""
    names: set[str] = set()
    position = 0
    while True:
        match = _ASSIGNMENT.match(code, position)
        target = match.group(1) if match is not None else ""
        if (
            match is None
            or "\n" in target
            or target.count("(") != target.count(")")
            or target.count("[") != target.count("]")
        ):
            return frozenset(names) if names else None  # the value, or `f(a=1)` (no assignment)
        names.update(_IDENTIFIER.findall(target))
        position = match.end()


def _definition_header(code: str) -> str | None:
    """For a (decorated) def or class: the line with `def`/`class` (decorators skipped)."""
    lines = code.splitlines()
    for index, line in enumerate(lines):
        if _DEF.match(line):
            return line
        if index == 0 and not _DECORATOR.match(line):
            return None
        if line[:1] not in ("@", " ", "\t", ")", "]", "}", ""):
            return None  # a column-0 line that is neither a decorator nor inside one
    return None


def _imported_names(code: str, block: _Block) -> frozenset[str]:
    if "*" in code:
        return block.mentions
    body = code.split("import", 1)[1] if code.startswith("from") else code[len("import") :]
    names: set[str] = set()
    for part in re.split(r"[,\n]", body.replace("(", " ").replace(")", " ").replace("\\", " ")):
        words = part.split()
        if not words:
            continue
        if "as" in words and words.index("as") + 1 < len(words):
            names.add(words[words.index("as") + 1])
        else:
            names.add(words[0].split(".")[0])
    return frozenset(names)


def kernel_slice(text: str, lines: list[str], kernel_names: Iterable[str] = ()) -> list[tuple[int, int]] | None:
    """The [start, end) line spans of the blocks to analyse first, in order; None: the whole file.

    `kernel_names` are functions of this module that another module launches (from the project
    index): their definitions are seeds too.
    """
    if "import *" in text and "pallas" in text:
        return None  # a star import may bring a launch API under any name
    if not kernel_names and not _API_ATTRIBUTE.search(text) and not _API_IMPORT.search(text):
        # No block can be a seed (most big modules that only mention Pallas), but a string left
        # open makes the text unreadable here as everywhere else.
        return [] if text.count('"""') % 2 == 0 and text.count("'''") % 2 == 0 else None
    blocks = _blocks(text, lines)
    if blocks is None:
        return None
    selector = _Selector(text, blocks)
    # An import of Pallas's TPU or GPU API says which chip the module's launches are compiled
    # for (the TPU rules read it: engine/blocks.compiled_for_tpu), even where nothing uses it.
    platform = selector._mentioning_pattern(_PLATFORM_IMPORT)
    selector.select(selector.seeds(set(kernel_names)) + platform)
    return [(b.start, b.end) for b in blocks if id(b) in selector.selected]


def _blocks(text: str, lines: list[str]) -> list[_Block] | None:
    """Top-level blocks, merged where a triple-quoted string or a backslash runs over column-0 lines."""
    starts = line_start_offsets(text, lines)
    inside = _lines_inside_strings(text, starts)
    if inside is None:
        return None
    spans: list[list[int]] = []
    for start, end in _top_level_blocks(lines):
        continued = start > 0 and lines[start - 1].rstrip("\r\n").endswith("\\")
        if spans and (start in inside or continued):
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return [_Block(start, end, "".join(lines[start:end])) for start, end in spans]


def _lines_inside_strings(text: str, starts: list[int]) -> set[int] | None:
    """Lines that begin inside a triple-quoted string (None: a string is never closed)."""
    inside: set[int] = set()
    position = 0
    while True:
        match = _STRING_OR_COMMENT.search(text, position)
        if match is None:
            return inside
        quote = match.group(1)
        if quote is None:
            position = match.end()
            continue
        closing = _TRIPLE_END[quote].match(text, match.end())
        if closing is None:
            return None
        first = bisect.bisect_right(starts, match.start())  # the line after the one it opens on
        last = bisect.bisect_right(starts, closing.end() - 1)  # one past the line it closes on
        inside.update(range(first, last))
        position = closing.end()


class _Selector:
    def __init__(self, text: str, blocks: list[_Block]) -> None:
        self.text = text
        self.blocks = blocks
        self.block_offsets = [0]
        for block in blocks[:-1]:
            self.block_offsets.append(self.block_offsets[-1] + len(block.text))
        self.selected: set[int] = set()
        self._binders: dict[str, list[_Block]] | None = None

    def _block_at(self, offset: int) -> _Block:
        return self.blocks[bisect.bisect_right(self.block_offsets, offset) - 1]

    def _mentioning(self, names: set[str]) -> list[_Block]:
        """Blocks whose text has one of `names` as a whole word (one pass over the text)."""
        if not names:
            return []
        return self._mentioning_pattern(
            re.compile(r"(?<![\w.])(?:{})\b".format("|".join(re.escape(n) for n in sorted(names))))
        )

    def _mentioning_pattern(self, pattern: re.Pattern[str]) -> list[_Block]:
        found: list[_Block] = []
        position = 0
        while (match := pattern.search(self.text, position)) is not None:
            index = bisect.bisect_right(self.block_offsets, match.start()) - 1
            found.append(self.blocks[index])
            # One match per block is enough: go on from the next block.
            position = self.block_offsets[index + 1] if index + 1 < len(self.blocks) else len(self.text)
        return found

    def seeds(self, kernel_names: set[str]) -> list[_Block]:
        seeds: dict[int, _Block] = {}
        for block in self._mentioning_pattern(_API_WORD):
            code = _code_only(block)
            # `from jax.experimental.pallas import pallas_call as launch`: the import says the name,
            # also inside `try:` / `if:` (`try: from ... import pallas_call` / `except ImportError:`).
            imported = code if _IMPORT.match(code.lstrip()) or _NESTED_IMPORT.search(code) else ""
            if _LAUNCH_ATTRIBUTE.search(code) or _LAUNCH_WORD.search(imported):
                seeds[id(block)] = block
            elif _CALLBACK_ATTRIBUTE.search(code) or _API_WORD.search(imported):
                block.callback_only = True
                seeds[id(block)] = block
        if kernel_names:
            for block in self.blocks:
                if block.binds & kernel_names:
                    seeds[id(block)] = block
        for block in seeds.values():
            block.launch_bearing = True
        return list(seeds.values())

    def binders(self, name: str) -> list[_Block]:
        if self._binders is None:
            self._binders = {}
            for block in self.blocks:
                for bound in block.binds:
                    self._binders.setdefault(bound, []).append(block)
        return self._binders.get(name, [])

    def select(self, work: list[_Block]) -> None:
        launch_names: set[str] = set()
        while work:
            new_launch_names: set[str] = set()
            while work:
                block = work.pop()
                if id(block) in self.selected:
                    continue
                self.selected.add(id(block))
                for name in block.mentions:
                    work += [b for b in self.binders(name) if id(b) not in self.selected]
                if block.launch_bearing and not (block.callback_only and block.defined_name is not None):
                    new_launch_names |= block.binds - launch_names
            launch_names |= new_launch_names
            for block in self._mentioning(new_launch_names):
                if not block.launch_bearing or block.callback_only:
                    block.launch_bearing, block.callback_only = True, False
                    if id(block) in self.selected:  # selected as a dependency: its names count now
                        self.selected.discard(id(block))
                    work.append(block)
