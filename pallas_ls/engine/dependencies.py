"""What a file's findings depend on besides its own text: the imports its analysis resolved and the
files they led to (issue 33: a cached result is reused only while all of them are unchanged).

A Project records them as its loaders resolve imports and read modules; `check` keeps them in the
findings cache beside the findings, and a later run asks `still_hold` before reusing an entry: each
import is resolved again (a module added, removed or moved since changes the answer) and each file
it led to is hashed again.  Nothing is parsed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

UNREADABLE = "unreadable"  # the digest of a file that could not be read


def text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


@dataclass(frozen=True)
class Lookup:
    """`import dotted` (or `from dotted import ...`) as written in `from_path`, resolved to `found`.

    `package`: the installed top-level package `from_path` was found under (None for a project
    file): an installed module's absolute imports are looked up in the environment first."""

    from_path: str
    dotted: str
    package: str | None
    found: str | None


@dataclass
class Dependencies:
    lookups: dict[Lookup, None] = field(default_factory=dict)  # ordered, without repeats
    files: dict[str, str] = field(default_factory=dict)  # path -> digest of the text read

    def add_lookup(self, lookup: Lookup) -> None:
        self.lookups[lookup] = None

    def add_file(self, path: str, digest: str) -> None:
        self.files[path] = digest

    def include(self, other: Dependencies) -> None:
        """Add what `other` read (a shared summary's reads, to each analysis that uses it)."""
        if other is not self:
            self.lookups.update(other.lookups)
            self.files.update(other.files)

    def still_hold(self, resolve: Callable[[Lookup], str | None], digest_of: Callable[[str], str]) -> bool:
        """Whether every import resolves as it did and every file read has the same text now."""
        return all(resolve(lookup) == lookup.found for lookup in self.lookups) and all(
            digest_of(path) == digest for path, digest in self.files.items()
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "lookups": [[x.from_path, x.dotted, x.package, x.found] for x in self.lookups],
            "files": self.files,
        }

    @classmethod
    def from_json(cls, data: Any) -> Dependencies:
        """Raises TypeError or ValueError for anything but what `to_json` makes."""
        if not isinstance(data, dict) or not isinstance(data.get("lookups"), list):
            raise TypeError("dependencies: expected an object with a list of lookups")
        made = cls()
        for item in data["lookups"]:
            if not isinstance(item, list) or len(item) != 4:
                raise ValueError("a lookup is [from_path, dotted, package, found]")
            from_path, dotted, package, found = item
            if not (isinstance(from_path, str) and isinstance(dotted, str)):
                raise TypeError("a lookup's file and module are strings")
            if not all(v is None or isinstance(v, str) for v in (package, found)):
                raise TypeError("a lookup's package and result are strings or null")
            made.add_lookup(Lookup(from_path, dotted, package, found))
        files = data.get("files")
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            raise TypeError("dependencies: files map paths to digests")
        made.files = dict(files)
        return made
