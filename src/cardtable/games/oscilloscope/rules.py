"""The Oscilloscope rules config: one flag per variant of the rulebook's §6, defaults from the ledger."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.rules import RulesBase, flag

from .cardset import canonical_cards, composition

MAX_STALL_LIMIT = 100
"""Largest ``stall_limit_sets`` accepted: the termination bound is proved for it (OSC-R64)."""


@dataclass(frozen=True, kw_only=True)
class OscilloscopeRules(RulesBase):
    """Every variant flag of the Oscilloscope rulebook (§6); the defaults are the ledger's defaults."""

    GAME: ClassVar[str] = "oscilloscope"
    RULES_VERSION: ClassVar[int] = 1

    flat_after_wild: str = flag("wild", choices=("wild", "declare"), ledger="OSC-I5",
                                doc="a Low or Hi card after a wild level stays wild, or its player declares H or L")
    noise_out_level: str = flag("wild", choices=("wild", "transparent"), ledger="OSC-I6",
                                doc="noise leaves a wild level, or passes the incoming level through")
    trigger_cards_connect: bool = flag(False, ledger="OSC-I8",
                                       doc="T_HL and T_LH connect in a train like HL and LH")
    train_assignment: str = flag("choose", choices=("choose", "random"), ledger="OSC-I11",
                                 doc="players choose their trains in turn order, or they are dealt at random")
    capture_by: str = flag("current", choices=("current", "trigger_owner"), ledger="OSC-I13",
                           doc="the current player captures, or whoever placed the last trigger")
    main_trigger_optional: bool = flag(False, ledger="OSC-I15",
                                       doc="the step-1 trigger placement may be skipped")
    trigger_anchor: str = flag("card", choices=("card", "position"), ledger="OSC-I18",
                               doc="a trigger rides on its card, or marks a fixed time position")
    trigger_move_range: int = flag(1, minimum=1, maximum=4, ledger="OSC-I19",
                                   doc="how many time positions from the anchor a new trigger may go")
    lowhi_multi_per_set: bool = flag(False, ledger="OSC-I22",
                                     doc="one trigger set may stack several Low or Hi cards in the anchor position")
    lowhi_keeps_edge_trigger: bool = flag(True, ledger="OSC-I22",
                                          doc="an edge trigger survives a Low or Hi stacked beside it")
    duplicate_cancel: bool = flag(True, ledger="OSC-I23",
                                  doc="a trigger placed on one of the same kind removes both")
    forbid_slot1_always: bool = flag(False, ledger="OSC-I24",
                                     doc="never place a trigger at time position 1, not only on a card about to vanish")
    clear_mode: str = flag("addon", choices=("addon", "replacing"), ledger="OSC-I26",
                           doc="clear is added at the anchor position, or replaces the board like an edge trigger")
    clear_alone_captures: bool = flag(True, ledger="OSC-I27",
                                      doc="a capture may be fired by clears alone")
    clamp_net_noise: bool = flag(True, ledger="OSC-I28",
                                 doc="net noise (noise - clear) is floored at 0")
    single_trigger_scores: bool = flag(True, ledger="OSC-I32",
                                       doc="a capture with a single trigger also earns that trigger")
    capture_optional: bool = flag(False, ledger="OSC-I33",
                                  doc="the capturer may decline a capture")
    close_gaps_on_capture: bool = flag(False, ledger="OSC-I34",
                                       doc="captured slots close at once and trains refill back to 5 cards")
    refill_order: str = flag("interleaved", choices=("interleaved", "per_player"), ledger="OSC-I37",
                             doc="refill one card per player per pass, or each player completes in turn")
    refill_draw: str = flag("one", choices=("one", "to_three"), ledger="OSC-I39",
                            doc="after a refill play draw one card, or draw up to 3")
    refill_all_players: bool = flag(False, ledger="OSC-I41",
                                    doc="every player plays in every refill pass, even with a complete train")
    exhaustion_ends_game: bool = flag(True, ledger="OSC-I44",
                                      doc="a train that can never be completed ends the game (else it is skipped)")
    noise_penalty: str = flag("net_x1_5_ceil", choices=("net_x1_5_ceil", "trains_x1_5_per_noise", "two_per_noise"),
                              ledger="OSC-I46", doc="how the noise penalty is computed")
    trigger_score_counts: bool = flag(True, ledger="OSC-I48",
                                      doc="a trigger kept as a score card counts as a waveform card")
    mp_end_excludes_cleared: bool = flag(False, ledger="OSC-I49",
                                         doc="noise captured together with a clear does not count towards the end")
    mp_noise_limit: int = flag(10, minimum=1, maximum=15, ledger="OSC-I49",
                               doc="captured noise that ends the multiplayer game (there are 15 noise cards)")
    tiebreak: str = flag("none", choices=("none", "fewer_net_noise"), ledger="OSC-I50",
                         doc="tied top scores share the win, or fewer net noise wins")
    max_players: int = flag(4, choices=(4, 5, 6), ledger="OSC-I51",
                            doc="most players allowed (5 and 6 are experimental)")
    solo_initial_pulse_cards: int = flag(2, choices=(0, 1, 2, 3), ledger="OSC-I52",
                                         doc="pulse cards in the solo player's starting hand")
    solo_clear_covers: str = flag("one", choices=("one", "all_in_capture"), ledger="OSC-I57",
                                  doc="in solo a clear cancels one noise of its capture, or all of them")
    solo_scoring: str = flag("waveform", choices=("waveform", "general_formula"), ledger="OSC-I58",
                             doc="the solo score is the waveform count, or the multiplayer formula")
    refill_must_connect: bool = flag(True, ledger="OSC-I38",
                                     doc="a refill must play a connecting card when the hand holds one")
    stall_limit_sets: int = flag(20, minimum=1, maximum=MAX_STALL_LIMIT, ledger="OSC-I67",
                                 doc="sets in a row without a capture that end the game")
    first_trigger_early_end: str = flag("always", choices=("always", "game_start_only"), ledger="OSC-I17",
                                        doc="a trigger placed on an empty board ends the turn always, or only the first")
    cards: str = flag("", ledger="OSC-I-CT15",
                      doc="card set: the decks' counts changed from the rulebook's, as type.deck=copies;... "
                          "(cardtable cards)")

    def __post_init__(self) -> None:
        if self.cards:  # OSC-I-CT15: checked (naming the card and the rule) and written canonically
            object.__setattr__(self, "cards", canonical_cards(self.cards))
        if not 1 <= self.trigger_move_range <= 4:
            raise ValueError(f"rule flag 'trigger_move_range' must be 1 to 4; got {self.trigger_move_range}")
        if not 1 <= self.mp_noise_limit <= 15:
            raise ValueError(f"rule flag 'mp_noise_limit' must be 1 to 15 (there are 15 noise cards); "
                             f"got {self.mp_noise_limit}")
        if not 1 <= self.stall_limit_sets <= MAX_STALL_LIMIT:
            raise ValueError(f"rule flag 'stall_limit_sets' must be 1 to {MAX_STALL_LIMIT}; got {self.stall_limit_sets}")
        composition(self.cards, self.mp_noise_limit)  # card conservation and the noise end (OSC-R1, OSC-I49)
