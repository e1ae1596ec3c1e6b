"""`.gitignore`, `.ignore` and git's exclude files, read as ruff reads them (`respect-gitignore`,
on by default): a generated `gen_kernels.py` that git ignores is not checked (issue 35).

What applies to a path in a walked directory, lowest precedence first (the last match wins):
1. git's global excludes (`$XDG_CONFIG_HOME/git/ignore`, else `~/.config/git/ignore`) and the
   repository's `.git/info/exclude`, inside a git repository;
2. `.gitignore` files from the repository's root down to the path's directory, inside a git
   repository only (as ruff and ripgrep: outside one they mean nothing to git either);
3. `.ignore` files, everywhere (ripgrep's convention, which ruff follows), up to the repository's
   root.
Nothing above a repository's root applies inside it (an enclosing repository, a dotfiles
repository at `~` ignoring `*`, is another repository).
A line is a gitignore pattern: `#` comments, `!` re-includes, a trailing `/` matches directories
only, a `/` elsewhere anchors it to its file's directory, `*`, `?`, `[...]` and `**` as git has them.
A file inside an ignored directory stays ignored (git never looks inside it).  A path named
explicitly on the command line is checked whatever these files say.  Nothing here runs git.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from .discovery import ExcludePattern, InvalidGlob

log = logging.getLogger(__name__)

_MAX_IGNORE_FILE = 1 << 20  # bytes: an ignore file bigger than this is not read


@dataclass(frozen=True)
class IgnoreRule:
    """One line of an ignore file: an `exclude` pattern (matched like a .gitignore line, relative
    to the ignore file's directory), maybe negated (`!`) or for directories only (a trailing `/`)."""

    pattern: ExcludePattern
    negated: bool
    directory_only: bool

    @property
    def glob(self) -> str:
        return self.pattern.pattern.lstrip("/")

    def matches(self, path: str, is_dir: bool) -> bool:
        return (is_dir or not self.directory_only) and self.pattern.matches(path)


def parse_ignore_file(path: str, base: str) -> tuple[IgnoreRule, ...]:
    """The rules of one ignore file (none when it cannot be read); a line git would reject (a
    reversed range) is skipped, as git skips it."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read(_MAX_IGNORE_FILE)
    except OSError:
        return ()
    rules = []
    for line in text.splitlines():
        try:
            rule = _rule(line, base)
        except InvalidGlob:  # ExcludePattern compiles its glob when made
            log.debug("%s: skipping the invalid pattern %r", path, line)
            continue
        if rule is not None:
            rules.append(rule)
    return tuple(rules)


def _rule(line: str, base: str) -> IgnoreRule | None:
    line = _strip_trailing_spaces(line)
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated or line.startswith(("\\#", "\\!")):
        line = line[1:]
    directory_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    # ExcludePattern anchors a pattern holding a `/` (a leading one included) to `base`, and
    # matches one without a `/` against the base name at any depth, as git does.
    return IgnoreRule(ExcludePattern(line, base), negated, directory_only)


def _strip_trailing_spaces(line: str) -> str:
    """Trailing spaces go unless escaped with a backslash (`foo\\ ` keeps one)."""
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line):
        return stripped[:-1] + " "
    return stripped


class IgnoreFiles:
    """The ignore rules of the directories of one walk, read once per directory."""

    def __init__(self) -> None:
        self._rules: dict[str, tuple[IgnoreRule, ...]] = {}
        self._git_roots: dict[str, str | None] = {}

    def ignored(self, path: str, is_dir: bool) -> bool:
        verdict = False
        for rule in self.rules_for(os.path.dirname(path)):
            if rule.matches(path, is_dir):
                verdict = not rule.negated
        return verdict

    def rules_for(self, directory: str) -> tuple[IgnoreRule, ...]:
        """Every rule that applies in `directory`, lowest precedence first: its parent's, then (at
        a repository's root) git's exclude files, then its own `.gitignore` and `.ignore`."""
        if directory not in self._rules:
            parent = os.path.dirname(directory)
            git_root = self.git_root(directory)
            # A repository's root starts afresh: an enclosing repository's rules (a dotfiles repo
            # at ~ ignoring `*`) say nothing about a repository inside it.
            rules = self.rules_for(parent) if parent != directory and git_root != directory else ()
            if git_root == directory:
                rules += self._repository_rules(git_root)
            if git_root is not None:
                rules += parse_ignore_file(os.path.join(directory, ".gitignore"), directory)
            self._rules[directory] = rules + parse_ignore_file(os.path.join(directory, ".ignore"), directory)
        return self._rules[directory]

    def _repository_rules(self, git_root: str | None) -> tuple[IgnoreRule, ...]:
        if git_root is None:
            return ()
        config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
        return parse_ignore_file(os.path.join(config_home, "git", "ignore"), git_root) + parse_ignore_file(
            os.path.join(git_root, ".git", "info", "exclude"), git_root
        )

    def git_root(self, directory: str) -> str | None:
        """The closest directory at or above `directory` holding `.git` (a directory, or the file
        of a worktree or submodule), or None."""
        if directory not in self._git_roots:
            if os.path.exists(os.path.join(directory, ".git")):
                found: str | None = directory
            else:
                parent = os.path.dirname(directory)
                found = None if parent == directory else self.git_root(parent)
            self._git_roots[directory] = found
        return self._git_roots[directory]
