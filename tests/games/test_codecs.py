"""Each engine's compact event codes have one codec: the layouts are declared once, and every code an
engine logs matches exactly one layout, declares each of its bits, and decodes to the event it stands for."""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any

import pytest

import cardtable
from cardtable.core import play_random
from cardtable.core.events import Codec, Field, Layout

GAMES: dict[str, list[dict[str, Any]]] = {
    "zeta": [{}],
    "oscilloscope": [{"players": 1}, {"players": 2}, {"players": 4}],
    "utahime": [{}, {"option_set": "designer_example"}],
}


def codec_module(game: str) -> ModuleType:
    """The codec module next to ``game``'s engine."""
    return importlib.import_module(f"cardtable.games.{game}.codec")


def logged_codes(game: str, setup: dict[str, Any], seeds: range) -> list[tuple[Any, int]]:
    """Every compact code of random games, with the state that logged it."""
    out = []
    for seed in seeds:
        state = cardtable.load_game(game).new_game(seed=seed, record_events=True, **setup)
        play_random(state, random.Random(seed))
        out.extend((state, row) for row in state.event_rows() if type(row) is int)
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_every_logged_code_matches_one_layout_and_round_trips(game: str) -> None:
    """A code matches exactly one layout; decoding it by name and encoding the fields again gives the
    same int (so every bit the engine sets is a declared field)."""
    codec: Codec = codec_module(game).CODEC
    seen: set[str] = set()
    for setup in GAMES[game]:
        for _, code in logged_codes(game, setup, range(6)):
            matching = [layout.name for layout in codec.layouts if layout.matches(code)]
            assert len(matching) == 1, (code, matching)
            name, fields = codec.decode(code)
            assert codec.encode(name, **fields) == code, (name, fields)
            seen.add(name)
    assert len(seen) >= len(codec.layouts) // 2  # the games logged most kinds of code


@pytest.mark.parametrize("game", list(GAMES))
def test_the_codec_decodes_what_the_state_logs(game: str) -> None:
    """The state's decoding of a code is the codec's: the row's kind is the layout's event and the
    decoded fields are what the row says (spot checks on the fields every game shares)."""
    module = codec_module(game)
    for setup in GAMES[game]:
        for state, code in logged_codes(game, setup, range(3)):
            row = state._decode_event(code)
            name, fields = module.CODEC.decode(code)
            seat = fields.get("seat", fields.get("player", fields.get("owner")))
            public = row[1]
            if seat is not None and "player" in public:
                assert public["player"] == seat, (name, fields, row)
            if "move" in fields:
                assert row[4] == fields["move"], (name, fields, row)


def test_zeta_codes_say_their_fields_by_name() -> None:
    """The Zeta codec's layouts name the fields the rulebook's events have."""
    from cardtable.games.zeta.codec import CODEC, DRAW, PLACE

    code = PLACE.encode(seat=1, card=7, square=12, move=3)
    assert CODEC.layout_of(code) is PLACE
    assert PLACE.decode(code) == {"seat": 1, "card": 7, "square": 12, "move": 3}
    assert DRAW.decode(DRAW.encode(seat=0, card=2, cause=-1, move=-1)) == {"seat": 0, "card": 2, "cause": -1,
                                                                           "move": -1}


def test_a_layout_refuses_overlapping_fields_and_values_that_do_not_fit() -> None:
    """Two fields on one bit, an open field before another, two tags that cannot be told apart and a
    value too wide are errors, not silent corruption."""
    with pytest.raises(ValueError, match="overlaps"):
        Layout("bad", 0, 1, (Field("a", 1, 4), Field("b", 3, 2))).check()
    with pytest.raises(ValueError, match="overlaps"):
        Layout("bad", 0, 3, (Field("a", 1, 4),)).check()
    with pytest.raises(ValueError, match="not the last"):
        Layout("bad", 0, 1, (Field("a", 1), Field("b", 9, 2))).check()
    with pytest.raises(ValueError, match="told apart"):
        Codec("toy", (Layout("a", 1, 1, ()), Layout("b", 1, 3, ())))
    with pytest.raises(ValueError, match="does not fit"):
        Layout("ok", 0, 1, (Field("a", 1, 2),)).encode(a=4)
    with pytest.raises(ValueError, match="no field"):
        Layout("ok", 0, 1, (Field("a", 1, 2),)).encode(b=1)
    with pytest.raises(ValueError, match="no compact code"):
        Codec("toy", (Layout("a", 1, 1, ()),)).layout_of(0)


def test_slotted_fields_hold_several_values() -> None:
    """A field of several slots (a draw's cards) encodes a sequence and decodes to a tuple."""
    layout = Layout("draw", 1, 1, (Field("count", 1, 2), Field("cards", 3, 7, 0, 3)))
    code = layout.encode(count=2, cards=(5, 9))
    assert layout.decode(code) == {"count": 2, "cards": (5, 9, 0)}
    assert layout.field("cards").slot(code, 1) == 9


def test_a_kit_that_names_a_codec_names_its_game_s_codec() -> None:
    """The kit's codec facet, where filled, is a ``Codec`` of that game."""
    from cardtable.core import registry

    for name in registry.games_with("codec"):
        codec = registry.part(name, "codec")
        assert isinstance(codec, Codec) and codec.game == name
