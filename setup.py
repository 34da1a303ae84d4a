"""Build hook: compiles the engines' hot modules with mypyc where a C compiler works, else builds pure Python.

Everything else about the package is in ``pyproject.toml``. ``CARDTABLE_PURE=1`` at install time
forces the pure build. Either way the build writes a manifest, ``cardtable/_build.json``: which
build it is and why, and for a compiled build each compiled module with the size, mtime and
sha256 of its source, so that ``cardtable.build_info()`` can say which build runs and an edited
source is never shadowed by a stale compiled module (``cardtable/_build.py`` reads it).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import sysconfig
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "cardtable"

COMPILED = (
    # the contract and its plumbing
    "core/errors.py", "core/rng.py", "core/game.py", "core/actions.py", "core/jsonpos.py",
    # the engines (their rules dataclasses, events vocabularies and game factories stay interpreted)
    "games/zeta/cards.py", "games/zeta/board.py", "games/zeta/actions.py", "games/zeta/vocab.py",
    "games/zeta/codec.py", "games/zeta/state.py", "games/zeta/view.py", "games/zeta/position.py",
    "games/oscilloscope/cards.py", "games/oscilloscope/actions.py", "games/oscilloscope/vocab.py",
    "games/oscilloscope/codec.py", "games/oscilloscope/state.py", "games/oscilloscope/view.py",
    "games/oscilloscope/position.py",
    "games/utahime/cards.py", "games/utahime/actions.py", "games/utahime/vocab.py", "games/utahime/codec.py",
    "games/utahime/state.py", "games/utahime/view.py", "games/utahime/position.py",
    # the search's tree
    "agents/ismcts.py",
    # the lab's reading of facts from event logs and its loop for random agents (once per game it plays)
    "lab/facts.py", "lab/gamefacts/zeta.py", "lab/gamefacts/oscilloscope.py", "lab/gamefacts/utahime.py",
    "lab/playout.py",
)
"""The modules the compiled build compiles, relative to the package (every other module stays Python)."""

GROUP = "cardtable_native"
"""The one shared library all compiled modules live in, ``cardtable_native__mypyc`` (top-level: mypyc places it
above the package tree and derives each module's ``__file__`` from there)."""


def _say(message: str) -> None:
    print(f"cardtable build: {message}", file=sys.stderr, flush=True)


def _module_name(rel: str) -> str:
    return "cardtable." + rel.removesuffix(".py").replace("/", ".")


def _c_compiler_problem() -> str | None:
    """None if a C compiler can build against this Python's headers, else what went wrong (one line)."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.c")
        with open(probe, "w", encoding="ascii") as f:
            f.write("#include <Python.h>\nint cardtable_probe(void) { return 0; }\n")
        try:
            compiler: Any = new_compiler()
            customize_compiler(compiler)
            compiler.compile([probe], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as exc:  # any failure means: build pure
            return f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1] if str(exc).strip() else 'failed'}"
    return None


def _pure_reason() -> str | None:
    """Why this build is pure Python (None: compile)."""
    if os.environ.get("CARDTABLE_PURE", "") not in ("", "0"):
        return "CARDTABLE_PURE was set at install"
    if sys.implementation.name != "cpython":
        return f"mypyc needs CPython, not {sys.implementation.name}"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed in the build environment"
    problem = _c_compiler_problem()
    if problem is not None:
        return f"no working C compiler ({problem})"
    return None


PURE_REASON = _pure_reason()


def _manifest() -> dict[str, Any]:
    if PURE_REASON is not None:
        return {"build": "pure", "reason": PURE_REASON, "modules": {}}
    modules = {}
    for rel in COMPILED:
        path = PACKAGE / rel
        data = path.read_bytes()
        st = path.stat()
        modules[_module_name(rel)] = {"source": rel, "sha256": hashlib.sha256(data).hexdigest(),
                                      "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    import mypy.version

    return {"build": "compiled", "reason": f"compiled with mypyc {mypy.version.__version__}",
            "group": GROUP, "modules": modules}


def _clean_source_tree() -> None:
    """Remove the extension modules an earlier editable build left next to the sources (they would shadow them)."""
    suffixes = (".so", ".pyd")
    for path in [*PACKAGE.rglob("*"), *PACKAGE.parent.glob(f"{GROUP}__mypyc*")]:
        if path.suffix in suffixes and path.is_file():
            path.unlink()


class BuildPy(build_py):
    """``build_py`` that also writes the build manifest (into the sources for an editable install)."""

    def run(self) -> None:
        super().run()
        if PURE_REASON is not None:
            _say(f"pure Python ({PURE_REASON})")
        editable = bool(getattr(self, "editable_mode", False))
        if editable:
            _clean_source_tree()
            target = PACKAGE / "_build.json"
        else:
            target = Path(self.build_lib) / "cardtable" / "_build.json"
            target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(_manifest(), indent=1, sort_keys=True) + "\n", encoding="utf-8")

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs: list[str] = list(super().get_outputs(include_bytecode))
        if not getattr(self, "editable_mode", False):
            outputs.append(str(Path(self.build_lib) / "cardtable" / "_build.json"))
        return outputs


class BuildExt(build_ext):
    """``build_ext`` that runs mypyc when it is needed (not for metadata) and compiles C files in parallel."""

    def finalize_options(self) -> None:
        if PURE_REASON is None and not set(self.distribution.commands) <= METADATA_ONLY:
            self.distribution.ext_modules = _extensions()
        super().finalize_options()

    def build_extension(self, ext: Any) -> None:
        compiler = self.compiler
        one_by_one = compiler.compile
        jobs = os.cpu_count() or 1

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if jobs < 2 or len(sources) < 2:
                return list(one_by_one(sources, *args, **kwargs))
            with ThreadPoolExecutor(jobs) as pool:
                done = list(pool.map(lambda source: one_by_one([source], *args, **kwargs), sources))
            return [obj for objects in done for obj in objects]

        compiler.compile = compile_all
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = one_by_one


METADATA_ONLY = {"dist_info", "egg_info", "sdist"}
"""Commands that only list the build's files: mypyc need not run for them."""


@functools.cache
def _extensions() -> list[Any]:
    """The extension modules mypyc generates C for (it type-checks the package first: a few seconds)."""
    from mypyc.build import mypycify

    _say(f"compiling {len(COMPILED)} modules with mypyc (CARDTABLE_PURE=1 builds pure Python instead)")
    cwd = os.getcwd()
    os.chdir(ROOT)  # mypy reads its settings from pyproject.toml here
    try:
        extensions = list(mypycify([str(Path("src") / "cardtable" / rel) for rel in COMPILED], opt_level="3",
                                   group_name=GROUP, multi_file=True))
    finally:
        os.chdir(cwd)
    return extensions


# A stand-in until build_ext runs mypyc: it tells setuptools that this is a platform build.
PLACEHOLDER = [Extension(f"{GROUP}__mypyc", sources=[])] if PURE_REASON is None else []

setup(ext_modules=PLACEHOLDER, cmdclass={"build_py": BuildPy, "build_ext": BuildExt})
