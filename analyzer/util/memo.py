"""The one on-disk memo: every cached figure checked on the way out, never trusted.

Four things are cached: ``bja ev``'s report models (:mod:`analyzer.report.cache`),
the comparison's per-rule-set figures (:mod:`analyzer.comparisons.runner`), the
results of shoe-state and certificate tasks (:func:`analyzer.util.pool.run_all`) and
optimal splitting's figure per pair and upcard
(:func:`analyzer.engine.optimal_split.optimal_split_value`).  Each is a pure function
of its inputs and of the code, so all four use this module:

* **one folder**: ``$BJA_CACHE_DIR`` if set, else the platform's user cache folder
  (``platformdirs``: ``~/.cache/bja`` on Linux); an entry lives at
  ``<folder>/<namespace>/<fingerprint[:16]>/<SHA-256 of its key>``, so the entries
  of an older source sit in their own folder and can be deleted by hand;
* **one fingerprint** (:func:`fingerprint`): SHA-256 over the relative path and
  bytes of every source file of the installed ``analyzer`` package (``.py``,
  the C kernel, the data files it reads), computed once per process.  Any source
  change therefore invalidates every entry: narrower fingerprints have missed the
  C kernel and the chart code before, and a recomputation costs only time;
* **the key inside the entry**: an entry holds its namespace, the canonical form
  of the inputs (:func:`canonical`) and the full fingerprint, and a SHA-256 over
  those and the payload.  On a read the stored key must equal the requested one
  byte for byte and the digest must match; otherwise (swapped, truncated,
  garbage, empty, another key's or another version's entry, a folder or a link in
  place of a file, a file past :data:`MAX_ENTRY_BYTES`, never read into memory) the
  entry is absent: recomputed quietly and rewritten (a link is left as it is);
* **written whole**: through :func:`analyzer.util.files.write_bytes_atomic` (a
  temporary file renamed into place), so processes running at once see no entry
  or a complete one, and two that compute the same entry write the same figures;
* **never in the way**: a folder that cannot be used (a file, read-only,
  permission denied, no space, a path too long) makes reads miss and drops
  writes; the answer is the same, only slower.

Payloads: each entry type has one :class:`Codec` that round-trips exactly:
:data:`JSON` (floats by ``repr``, fractions already ``"p/q"`` text) for the
comparison's figures, :func:`pickled` for the project's frozen models.  Pickle
runs code when loaded, so the folder is trusted as the user's own files are
(like ``~/.cache``, or the installed package itself): the checks above catch
corruption, mix-ups and stale entries, not an attacker who can write there -- who
could as well edit the code.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import numbers
import os
import pickle
import stat
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Generic, TypeVar

from analyzer.core.arith import is_exact
from analyzer.core.errors import InternalError, UsageError
from analyzer.util.files import write_bytes_atomic
from analyzer.util.text import fraction_text

T = TypeVar("T")

MAGIC = b"bja-memo 1"  # the first line of every entry: the format of what follows
MAX_ENTRY_BYTES = 256 * 1024 * 1024  # entries are kilobytes; past this a file is no entry
# The files whose bytes make the fingerprint: the sources, the C kernel, data files read.
SOURCE_SUFFIXES = frozenset({".py", ".c", ".h", ".toml"})
PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # the installed ``analyzer`` package


def cache_dir() -> Path:
    """``$BJA_CACHE_DIR`` if set, else the user cache folder of the platform."""
    folder = os.environ.get("BJA_CACHE_DIR")
    if folder:
        return Path(folder)
    import platformdirs

    return Path(platformdirs.user_cache_dir("bja"))


def source_files(root: Path) -> list[Path]:
    """The files under ``root`` a figure can depend on, in a fixed order (no caches,
    no compiled extension: it is built from the ``.c`` file hashed beside it)."""
    return sorted(p for p in root.rglob("*")
                  if p.suffix in SOURCE_SUFFIXES and "__pycache__" not in p.parts
                  and p.is_file())


def fingerprint_of(root: Path) -> str:
    """SHA-256 over the relative path and the bytes of every source file under ``root``."""
    digest = hashlib.sha256()
    for path in source_files(root):
        data = path.read_bytes()
        name = path.relative_to(root).as_posix().encode()
        digest.update(b"%d:%s%d:" % (len(name), name, len(data)))  # unambiguous joins
        digest.update(data)
    return digest.hexdigest()


@cache
def fingerprint() -> str:
    """The fingerprint of the installed package (once per process): part of every key."""
    return fingerprint_of(PACKAGE_ROOT)


def _plain(value: object) -> object:
    """``value`` as JSON data, each type tagged where two types could print alike."""
    if isinstance(value, Enum):  # before str/int: a StrEnum is also a str
        return {"enum": f"{type(value).__module__}.{type(value).__qualname__}.{value.name}"}
    if value is None or isinstance(value, bool | str):
        return value
    if is_exact(value):  # a Fraction, or the GMP rational equal to it
        return {"fraction": fraction_text(value)}
    if isinstance(value, numbers.Integral):  # numpy's integers too
        return int(value)
    if isinstance(value, numbers.Real):  # 1.0 is not 1; numpy's floats print as Python's
        return {"float": repr(float(value))}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"dataclass": f"{type(value).__module__}.{type(value).__qualname__}",
                "fields": [[f.name, _plain(getattr(value, f.name))]
                           for f in dataclasses.fields(value)]}
    if isinstance(value, Mapping):
        items = [[_plain(k), _plain(v)] for k, v in value.items()]
        return {"mapping": sorted(items, key=_text)}
    if isinstance(value, Set):
        return {"set": sorted((_plain(v) for v in value), key=_text)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    raise InternalError(f"no canonical form for a memo key of type {type(value).__name__}")


def _text(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical(key: object) -> str:
    """The canonical text of a key: equal inputs give equal text, different ones differ.

    Built from None, bools, ints, floats, strings, fractions, enums, tuples and
    lists, mappings, sets and dataclasses (such as :class:`~analyzer.core.rules.Rules`).

    >>> canonical(("6D", 1, True, 1.0, None))
    '["6D",1,true,{"float":"1.0"},null]'
    >>> canonical({2, 1}) == canonical(frozenset({1, 2}))
    True
    """
    return _text(_plain(key))


@dataclass(frozen=True)
class Codec(Generic[T]):
    """How one entry type becomes bytes and back (``decode``: None for what it rejects)."""

    name: str
    encode: Callable[[T], bytes]
    decode: Callable[[bytes], T | None]


def _json_dict(data: bytes) -> dict[str, object] | None:
    value = json.loads(data.decode("utf-8"))
    return value if isinstance(value, dict) else None


JSON: Codec[dict[str, object]] = Codec(
    "json", lambda value: json.dumps(value, sort_keys=True).encode("utf-8"), _json_dict)


def pickled(kind: type[T]) -> Codec[T]:
    """A codec by pickle whose decoded value must be a ``kind`` (see the module doc)."""

    def decode(data: bytes) -> T | None:
        value = pickle.loads(data)
        return value if isinstance(value, kind) else None

    return Codec(f"pickle:{kind.__qualname__}",
                 lambda value: pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), decode)


class Memo(Generic[T]):
    """The entries of one namespace (one kind of figure) under the current fingerprint.

    A disabled memo (``--no-cache``) reads nothing and writes nothing.
    """

    def __init__(self, namespace: str, codec: Codec[T], *, enabled: bool = True) -> None:
        self.namespace = namespace
        self.codec = codec
        self.enabled = enabled

    def _header(self, key: object) -> bytes:
        """The entry's key line: namespace, codec, the inputs' canonical form, fingerprint."""
        return _text({"namespace": self.namespace, "codec": self.codec.name,
                      "key": canonical(key), "fingerprint": fingerprint()}).encode("ascii")

    def path(self, key: object) -> Path:
        """Where the entry of ``key`` is kept (the folder read when the call is made)."""
        name = hashlib.sha256(canonical(key).encode("ascii")).hexdigest()
        return cache_dir() / self.namespace / fingerprint()[:16] / name

    def get(self, key: object) -> T | None:
        """The value kept for ``key``, or None: absent, damaged, foreign or unreadable."""
        if not self.enabled:
            return None
        try:
            path = self.path(key)
            # Entries are written as regular files: a folder, a pipe or a link (which could
            # lead to a device that blocks) is never opened, and a file past any entry's
            # size is not read into memory to be found wrong.
            # (opened without following a link and without waiting, then checked on what
            # was opened: a link or a pipe swapped in after a check cannot slip through)
            flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
            fd = os.open(path, flags)
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
                os.close(fd)
                return None
            with os.fdopen(fd, "rb") as f:
                data = f.read(MAX_ENTRY_BYTES + 1)
        except (OSError, ValueError):  # no folder, not a folder, no permission, too long
            return None
        if len(data) > MAX_ENTRY_BYTES:  # grew while it was read
            return None
        magic, _, rest = data.partition(b"\n")
        header, _, rest = rest.partition(b"\n")
        digest, _, payload = rest.partition(b"\n")
        if (magic != MAGIC or header != self._header(key)
                or digest != hashlib.sha256(header + b"\n" + payload).hexdigest().encode()):
            return None
        try:
            return self.codec.decode(payload)
        except Exception:  # a payload this code cannot read back, whatever the error
            return None

    def put(self, key: object, value: T) -> None:
        """Keep ``value`` for ``key``, whole or not at all; a folder that cannot take it
        drops it (the caller has its answer already)."""
        if not self.enabled:
            return
        with contextlib.suppress(UsageError, OSError, ValueError):
            header = self._header(key)  # (the fingerprint reads the package: OSError)
            payload = self.codec.encode(value)
            digest = hashlib.sha256(header + b"\n" + payload).hexdigest().encode()
            entry = b"\n".join([MAGIC, header, digest, payload])
            if len(entry) <= MAX_ENTRY_BYTES:  # a larger one would never be read back
                write_bytes_atomic(self.path(key), entry)

    def get_or_compute(self, key: object, compute: Callable[[], T],
                       belongs: Callable[[T], bool] | None = None) -> T:
        """The kept value of ``key``, else ``compute()`` (then kept).

        ``belongs`` asks the decoded value itself whether it answers this key (a report
        naming its own rules): a value that says no is absent, even with its entry's
        checksum right, as after another entry's payload was written under this key.
        """
        found = self.get(key)
        if found is not None and (belongs is None or belongs(found)):
            return found
        value = compute()
        self.put(key, value)
        return value


__all__ = ["JSON", "Codec", "Memo", "cache_dir", "canonical", "fingerprint", "fingerprint_of",
           "pickled", "source_files"]
