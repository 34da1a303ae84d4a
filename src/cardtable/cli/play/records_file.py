"""Reading a file of records: one record (what a room's download or ``cardtable play`` writes), a JSON list
of records (a player's "download my records"), or JSON lines (one record per line).

>>> import json, tempfile, pathlib
>>> from cardtable.core.records import record_of
>>> from cardtable.core.registry import load_game
>>> one = record_of(load_game("zeta").new_game(seed=1)).to_json()
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "all.json").write_text(json.dumps([one, one]), encoding="utf-8") and None
>>> [r.game for r in load_records(folder / "all.json")]
['zeta', 'zeta']
>>> (folder / "all.jsonl").write_text(json.dumps(one) + "\\n" + json.dumps(one) + "\\n", encoding="utf-8") and None
>>> len(load_records(folder / "all.jsonl"))
2
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardtable.core import Record, RecordError


def load_records(path: str | Path) -> list[Record]:
    """Every record a file holds, in order; RecordError (naming the record) if the file or one record is bad."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read record {path}: {exc}") from None
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise RecordError(f"cannot read record {path}: {exc}") from None
        try:
            data = [json.loads(line) for line in lines]
        except json.JSONDecodeError as bad:
            raise RecordError(f"cannot read record {path}: neither JSON nor JSON lines ({bad})") from None
    if not isinstance(data, list):
        return [Record.from_json(data)]
    if not data:
        raise RecordError(f"{path} holds no records")
    out: list[Record] = []
    for i, item in enumerate(data, start=1):
        try:
            out.append(Record.from_json(item))
        except RecordError as exc:
            raise RecordError(f"record {i} of {path}: {exc}") from None
    return out


def pick_record(records: list[Record], number: int | None, path: str | Path) -> Record:
    """The record to step through: the only one, or the ``number``-th (1-based); RecordError otherwise."""
    if number is None:
        if len(records) == 1:
            return records[0]
        raise RecordError(f"{path} holds {len(records)} records: choose one with --game N (1 to {len(records)}), "
                          "or print every result with --to-end")
    if not 1 <= number <= len(records):
        raise RecordError(f"--game takes 1 to {len(records)} for {path}, got {number}")
    return records[number - 1]
