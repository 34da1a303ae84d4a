"""The package keeps its layers (docs/contract.md, "Layers"): import-linter's contracts in pyproject.toml hold.

Each layer imports only the layers below it, and no package or module is part of an import circle,
imports inside functions included (those under ``TYPE_CHECKING`` excepted).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _lint_imports() -> subprocess.CompletedProcess[str]:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert command is not None, "import-linter comes with the test extra"
    return subprocess.run([command, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_every_import_contract_is_kept() -> None:
    done = _lint_imports()
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_the_contracts_cover_every_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")["layers"]
    named = {part.strip() for layer in layers for part in layer.split("|")}
    packages = {f"cardtable.{p.name}" for p in (ROOT / "src" / "cardtable").iterdir()
                if p.is_dir() and (p / "__init__.py").exists()}
    assert named == packages, "every package of cardtable has its place in the layers"
    assert any(c["type"] == "acyclic_siblings" for c in config["contracts"])


def test_docs_draw_the_layers_the_contract_checks() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")["layers"]
    text = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
    picture = text.split("## Layers", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    drawn = [" | ".join(part.strip() for part in line[:30].split("|")) for line in picture.splitlines()]
    assert drawn == [" | ".join(p.strip().removeprefix("cardtable.") for p in layer.split("|")) for layer in layers]
