"""Which build runs, compiled (mypyc) or pure Python, and why; never a stale compiled module.

``pip install`` compiles the engines' hot modules where a C compiler works (see ``setup.py``) and
writes a manifest next to this file, ``_build.json``: the build, why, and for a compiled build
each compiled module with the size, mtime and sha256 of the source it was compiled from. The
package's ``__init__`` calls :func:`select` before importing anything else, and when the compiled
modules must not run it puts a finder first on ``sys.meta_path`` that loads the ``.py`` source of
every ``cardtable`` module instead (all of them, never a mix: compiled modules call each other
natively). That happens when

- ``CARDTABLE_PURE`` is set (to anything but ``0``) at run time, or
- a compiled module's source changed since the build (an editable install keeps the compiled
  modules next to the sources): a :class:`StaleBuildWarning` names the file and the command that
  rebuilds (``pip install -e .``).

The check is cheap: sizes and mtimes are compared, and a source is hashed only when they differ.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = PACKAGE_DIR / "_build.json"
PURE_VARIABLE = "CARDTABLE_PURE"
REBUILD = "pip install -e ."


class StaleBuildWarning(RuntimeWarning):
    """A compiled module is older than its edited source: the pure-Python build runs instead."""


@dataclass(frozen=True)
class BuildInfo:
    """The build in use: compiled (mypyc) or pure Python, why, and which modules are compiled."""

    compiled: bool
    """True when the compiled modules run."""
    reason: str
    """Why this build runs (one line)."""
    modules: tuple[str, ...] = ()
    """The compiled modules in use (empty for the pure build)."""
    stale: tuple[str, ...] = ()
    """Sources (relative to the package) edited since they were compiled (the pure build runs then)."""

    @property
    def label(self) -> str:
        """``compiled (mypyc)`` or ``pure Python``."""
        return "compiled (mypyc)" if self.compiled else "pure Python"

    def __str__(self) -> str:
        return f"{self.label}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        """The build as a JSON object."""
        return {"build": "compiled" if self.compiled else "pure", "label": self.label, "reason": self.reason,
                "modules": list(self.modules), "stale": list(self.stale)}


class _SourceFinder:
    """Loads every ``cardtable`` module from its ``.py`` source, whatever compiled module lies beside it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The source spec of a ``cardtable`` module (None for packages and everything else)."""
        if not fullname.startswith("cardtable.") or not path:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for entry in path:
            source = os.path.join(entry, leaf)
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


_selected: tuple[str, tuple[str, ...]] | None = None
"""What :func:`select` decided: (why the pure build runs, or "" for compiled; the stale sources)."""


def read_manifest(path: Path = MANIFEST) -> dict[str, Any] | None:
    """The build manifest, or None when there is none (a source tree nobody installed) or it is unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _sha256(path: Path) -> str:
    import hashlib  # only when a source's stat changed

    return hashlib.sha256(path.read_bytes()).hexdigest()


def stale_sources(manifest: dict[str, Any], package_dir: Path = PACKAGE_DIR) -> list[str]:
    """The compiled modules' sources (relative paths) that differ from what was compiled."""
    out = []
    modules = manifest.get("modules")
    for entry in (modules.values() if isinstance(modules, dict) else ()):
        rel = str(entry.get("source", ""))
        source = package_dir / rel
        try:
            st = source.stat()
            if st.st_size == entry.get("size") and st.st_mtime_ns == entry.get("mtime_ns"):
                continue  # untouched since the build
            if st.st_size == entry.get("size") and _sha256(source) == entry.get("sha256"):
                continue  # touched, not changed (a checkout, a copy, an install that did not keep mtimes)
        except OSError:
            pass  # a missing source cannot be checked: treat it as changed
        out.append(rel)
    return out


def missing_extensions(manifest: dict[str, Any], package_dir: Path = PACKAGE_DIR) -> list[str]:
    """The compiled modules' sources (relative paths) with no extension module beside them."""
    out = []
    modules = manifest.get("modules")
    for entry in (modules.values() if isinstance(modules, dict) else ()):
        rel = str(entry.get("source", ""))
        stem = (package_dir / rel).with_suffix("")
        if not any(os.path.isfile(f"{stem}{suffix}") for suffix in importlib.machinery.EXTENSION_SUFFIXES):
            out.append(rel)
    return out


def _install_source_finder() -> None:
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())


def decide(manifest: dict[str, Any] | None, environ: Mapping[str, str],
           package_dir: Path = PACKAGE_DIR) -> tuple[str, tuple[str, ...], str]:
    """Whether compiled modules may run: (why not, or "" when they may; stale sources; a warning or "")."""
    if manifest is None:
        return ("no build manifest (not installed with pip): the sources run", (), "")
    if manifest.get("build") != "compiled":
        return (f"built pure at install: {manifest.get('reason', 'no reason recorded')}", (), "")
    forced = environ.get(PURE_VARIABLE, "")
    if forced not in ("", "0"):
        return (f"{PURE_VARIABLE}={forced} at run time", (), "")
    missing = missing_extensions(manifest, package_dir)
    if missing:
        listed = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
        return (f"compiled modules missing ({', '.join(missing)})", (),
                f"cardtable: the compiled modules of {listed} are missing; running the pure-Python build "
                f"(rebuild with `{REBUILD}`)")
    stale = tuple(stale_sources(manifest, package_dir))
    if stale:
        listed = ", ".join(f"src/cardtable/{rel}" for rel in stale[:3]) + (", ..." if len(stale) > 3 else "")
        return (f"stale compiled modules ({', '.join(stale)} edited since the build)", stale,
                f"cardtable: {listed} changed since it was compiled; running the pure-Python build "
                f"(rebuild with `{REBUILD}`)")
    return ("", (), "")


def select() -> None:
    """Decide once, before any engine module is imported, whether the compiled modules may run."""
    global _selected
    if _selected is not None:
        return
    why, stale, warning = decide(read_manifest(), os.environ)
    if warning:
        warnings.warn(warning, StaleBuildWarning, stacklevel=3)
    if why:
        _install_source_finder()
    _selected = (why, stale)


def _compiled_in_use(names: Sequence[str]) -> list[str]:
    """Those of ``names`` that are imported, or importable, as extension modules."""
    found = []
    for name in names:
        module = sys.modules.get(name)
        if module is None:
            try:
                module = importlib.import_module(name)
            except ImportError:
                continue
        origin = getattr(module, "__file__", None) or ""
        if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            found.append(name)
    return found


def build_info() -> BuildInfo:
    """The build in use: compiled (mypyc) or pure Python, and why."""
    select()
    assert _selected is not None
    why, stale = _selected
    if why:
        return BuildInfo(False, why, (), stale)
    manifest = read_manifest() or {}
    names = sorted(manifest.get("modules", {}))
    running = _compiled_in_use(names)
    if len(running) < len(names):  # cannot happen after select(); say so rather than claim a compiled build
        return BuildInfo(False, f"only {len(running)} of {len(names)} compiled modules load", tuple(running))
    return BuildInfo(True, f"{manifest.get('reason', 'compiled at install')} ({len(running)} modules)", tuple(running))
