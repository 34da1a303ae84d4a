"""The training report: loss curves and strength against the heuristic per generation, as a chart and a page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .config import TrainConfig


def write_chart(path: Path, history: Sequence[dict[str, Any]], title: str) -> None:
    """Two panels: the policy and value losses by generation; the score against the heuristic with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    gens = [h["generation"] for h in history]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(gens, [h["policy_loss"] for h in history], marker="o", label="policy (cross-entropy)")
    left.plot(gens, [h["value_loss"] for h in history], marker="s", label="value (squared error)")
    left.set_xlabel("generation")
    left.set_ylabel("loss")
    left.set_title("training loss")
    left.legend()
    rated = [h for h in history if h.get("vs_heuristic")]
    if rated:
        xs = [h["generation"] for h in rated]
        ys = [100 * h["vs_heuristic"]["score"] for h in rated]
        lo = [y - 100 * h["vs_heuristic"]["low"] for y, h in zip(ys, rated, strict=True)]
        hi = [100 * h["vs_heuristic"]["high"] - y for y, h in zip(ys, rated, strict=True)]
        right.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3)
    right.axhline(50, color="grey", linestyle="--", linewidth=1)
    right.set_ylim(0, 100)
    right.set_xlabel("generation")
    right.set_ylabel("score of learned (%)")
    right.set_title("learned against the heuristic (95% interval)")
    from matplotlib.ticker import MaxNLocator

    for axis in (left, right):
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def report_markdown(cfg: TrainConfig, history: Sequence[dict[str, Any]]) -> str:
    """The report page: the settings, one row per generation, and the chart."""
    lines = [f"# Training report: {cfg.game}", "", "![loss and strength by generation](report.png)", "",
             "| generation | positions | window | policy loss | value loss | learned vs heuristic (95%) | "
             "self-play s | total s |", "|---|---|---|---|---|---|---|---|"]
    for h in history:
        rated = h.get("vs_heuristic")
        strength = (f"{100 * rated['score']:.1f}% [{100 * rated['low']:.1f}, {100 * rated['high']:.1f}] "
                    f"of {rated['games']}" if rated else "-")
        lines.append(f"| {h['generation']} | {h['samples']} | {h['window']} | {h['policy_loss']:.3f} | "
                     f"{h['value_loss']:.3f} | {strength} | {h['selfplay_seconds']:.0f} | {h['seconds']:.0f} |")
    lines += ["", "## Settings", "", "```json"]
    import json

    lines += [json.dumps(cfg.to_json(), indent=2, sort_keys=True), "```", ""]
    return "\n".join(lines)


def write_report(directory: Path, cfg: TrainConfig, history: Sequence[dict[str, Any]]) -> None:
    """Write ``report.png`` and ``report.md`` into the run's directory."""
    write_chart(directory / "report.png", history, f"{cfg.game}: self-play training, seed {cfg.seed}")
    (directory / "report.md").write_text(report_markdown(cfg, history), encoding="utf-8")
