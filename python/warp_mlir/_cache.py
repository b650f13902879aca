"""The on-disk compile cache: compiled device code keyed by what determines it.

An entry's key is the SHA-256 of the IR text, the pipeline options (chip,
format, opt-level, strategy, bare-ptr-memref), the compiler's version
(warpGetVersion) and the identity of the compiler library (path, size and
modification time: a rebuilt library never serves old entries). Entries are
single files written to a temporary name and renamed into place, so
concurrent compilations never see half an entry.

Where: $WARP_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/warp_mlir, else
~/.cache/warp_mlir. Off: WARP_MLIR_CACHE=0 (or compile(..., cache=False)).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Optional, Tuple

_OFF = ("0", "off", "false", "no")
# Bumped when the entry layout changes.
_LAYOUT = "warp_mlir-cache-1"


def enabled() -> bool:
    """False when $WARP_MLIR_CACHE is 0/off/false/no."""
    return os.environ.get("WARP_MLIR_CACHE", "1").strip().lower() not in _OFF


def directory() -> Path:
    """The cache directory (not created here)."""
    if os.environ.get("WARP_MLIR_CACHE_DIR"):
        return Path(os.environ["WARP_MLIR_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "warp_mlir"


def key(text: str, options: str, version: str, library: str) -> str:
    """The entry name of one compilation."""
    digest = hashlib.sha256()
    for part in (_LAYOUT, version, library, options, text):
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))  # unambiguous concatenation
        digest.update(data)
    return digest.hexdigest()


def library_identity(path: Optional[str]) -> str:
    if not path:
        return "?"
    try:
        info = os.stat(path)
    except OSError:
        return path
    return f"{os.path.realpath(path)}:{info.st_size}:{info.st_mtime_ns}"


def load(name: str) -> Optional[Tuple[dict, bytes]]:
    """(metadata, binary) of an entry, or None (missing or unreadable)."""
    try:
        data = (directory() / name).read_bytes()
        header, _, binary = data.partition(b"\n")
        meta = json.loads(header.decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("layout") != _LAYOUT or meta.get("size") != len(binary):
        return None
    return meta, binary


def store(name: str, meta: dict, binary: bytes) -> bool:
    """Writes an entry atomically; False when the directory is not writable
    (a cache that cannot be written is skipped, never an error)."""
    folder = directory()
    meta = dict(meta, layout=_LAYOUT, size=len(binary))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix="-" + name[:16])
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(json.dumps(meta, sort_keys=True).encode("utf-8") + b"\n" + binary)
            os.replace(temporary, folder / name)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise
    except OSError:
        return False
    return True
