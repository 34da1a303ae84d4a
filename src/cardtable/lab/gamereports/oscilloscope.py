"""Oscilloscope's tables of a lab report: triggers placed and kept, noise captured, clears scored, score
parts (the report-tables facet of Oscilloscope's kit)."""

from __future__ import annotations

from typing import Any

import pandas as pd  # type: ignore[import-untyped]

from ..analysis import Frames, counts, distribution, feature_table
from ..facts import Verb

_OSC_TRIGGERS = ("T_HL", "T_LH", "T_BOTH", "LOH", "CLEAR")


def oscilloscope_tables(fr: Frames) -> dict[str, Any]:
    """Oscilloscope: triggers placed by type, triggers kept by capture, noise captured and clears scored."""
    placed = counts(fr, Verb.PLAYED, list(_OSC_TRIGGERS)).add_prefix("placed ")
    kept = counts(fr, Verb.KEPT, list(_OSC_TRIGGERS[:4])).add_prefix("kept ")
    captured = counts(fr, Verb.CAPTURED, ["HL", "LH", "LOH", "NOISE"]).add_prefix("captured ")
    cleared = counts(fr, Verb.CLEARED, ["CLEAR"]).rename(columns={"CLEAR": "clears scored"})
    noise = pd.concat([captured[["captured NOISE"]], cleared], axis=1)
    parts = {}
    for key in ("waveform", "noise", "clear", "penalty", "score"):
        column = f"ctx_{key}"
        if column in fr.seats:
            values = fr.seats[column].astype(float)
            parts[key] = {str(p): distribution(values[fr.seats["position"] == p].dropna().to_numpy())
                          for p in sorted(fr.seats["position"].unique())}
    return {"triggers": feature_table(fr, placed, "triggers placed by type (OSC-R12)"),
            "kept": feature_table(fr, kept, "triggers kept as score cards by capture (OSC-R29)"),
            "noise": feature_table(fr, noise, "noise captured and clears scored (OSC-R30, OSC-R34)"),
            "score_parts": parts}
