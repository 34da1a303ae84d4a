"""Zeta's rule-variant flags (rulebook §4.2), defaults = the ledger's defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.rules import RulesBase, flag

from .cardset import canonical_cards, card_numbers


@dataclass(frozen=True, kw_only=True)
class ZetaRules(RulesBase):
    """Every Zeta variant flag; ``ZetaRules()`` is the standard game."""

    GAME: ClassVar[str] = "zeta"
    RULES_VERSION: ClassVar[int] = 1

    board_width: int = flag(6, choices=(4, 6), ledger="ZETA-I3", doc="board width (even, 4-6)")
    board_height: int = flag(6, choices=(4, 6), ledger="ZETA-I3", doc="board height (even, 4-6)")
    gravity: bool = flag(False, ledger="ZETA-I4", doc="cards must rest on the bottom edge or a card/block (R16)")
    deck_size: int = flag(25, minimum=4, maximum=60, ledger="ZETA-I2", doc="exact deck size (R6)")
    construction_limits: bool = flag(
        True, ledger="ZETA-I-CT1",
        doc="enforce per-type copy limits; false lifts them for experiments (e.g. 25 chant_practice each)")
    first_player: str = flag("random", choices=("random", "p1"), ledger="ZETA-I8",
                             doc="who goes first: a coin toss, or seat 0")
    second_player_extra_card: bool = flag(False, ledger="ZETA-I6", doc="the second player draws 4 at setup (R10)")
    mulligan: str = flag("none", choices=("none", "once"), ledger="ZETA-I7", doc="full redraw once (R11)")
    first_turn_draw: bool = flag(True, ledger="ZETA-I9", doc="the first player draws on turn 1")
    overline_wins: bool = flag(True, ledger="ZETA-I13", doc="five or more in a row also wins")
    win_check_timing: str = flag("on_placement", choices=("on_placement", "after_triggers"), ledger="ZETA-I14",
                                 doc="four-in-a-row checked before or after placement triggers")
    trigger_order: str = flag("fanfare_first", choices=("fanfare_first", "triggers_first"), ledger="ZETA-I15",
                              doc="placed card's Fanfare before or after placement triggers")
    board_full_check: str = flag("after_resolution", choices=("after_resolution", "on_placement"),
                                 ledger="ZETA-I16", doc="when the board-full end is checked")
    board_full_tie: str = flag("draw", choices=("draw", "continue"), ledger="ZETA-I17",
                               doc="equal counts on a full board: draw, or play on")
    blocked_counts_as_filled: bool = flag(True, ledger="ZETA-I18", doc="blocked squares count as filled")
    empty_deck_draw: str = flag("no_effect", choices=("no_effect", "lose_immediately"), ledger="ZETA-I20",
                                doc="drawing from an empty deck during an effect")
    mourning_count_scope: str = flag("all", choices=("all", "board_only"), ledger="ZETA-I23",
                                     doc="which destroyed cards Mourning the Dead counts")
    ultimate_zero_disposal: str = flag("destroy", choices=("destroy", "remove_from_game"), ledger="ZETA-I24",
                                       doc="where Ultimate Zero sends the hands")
    targeted_destroy_scope: str = flag("any", choices=("any", "opponent_only"), ledger="ZETA-I25",
                                       doc="whose cards optional single-target destroys may hit")
    circle_reach: str = flag("adjacent", choices=("adjacent", "line"), ledger="ZETA-I28",
                             doc="circles react to adjacent squares or whole lines")
    do_over_empty_hand: str = flag("draw", choices=("draw", "no_draw"), ledger="ZETA-I33",
                                   doc="Do-Over with an empty hand still draws")
    fortune_short_draw: str = flag("destroy", choices=("destroy", "keep"), ledger="ZETA-I34",
                                   doc="Fortune-Telling that drew only 1 card")
    apprentice_check_time: str = flag("on_resolution", choices=("on_resolution", "opponent_turn_start"),
                                      ledger="ZETA-I35", doc="when Apprentice Hexer's hand-size test is made")
    negation_scope: str = flag("new_fanfares", choices=("new_fanfares", "include_lingering"), ledger="ZETA-I37",
                               doc="negation also suppresses the negated player's own Broom")
    wind_mage_negated: str = flag("destroy", choices=("destroy", "remove_from_game", "forbid_cover"),
                                  ledger="ZETA-I38", doc="the covered card when the Wind Mage is negated")
    wind_mage_vacant: str = flag("last_occupant", choices=("last_occupant", "ever", "disabled"), ledger="ZETA-I39",
                                 doc="which empty squares a Wind Mage may take")
    broom_vs_earth: str = flag("restriction_wins", choices=("restriction_wins", "permission_wins"),
                               ledger="ZETA-I42", doc="Broom and Earth Mage in the same turn")
    single_arrow_blocked_filled: bool = flag(False, ledger="ZETA-I48",
                                             doc="blocked squares count as filled for Single-Arrow")
    cards: str = flag("", ledger="ZETA-I-CT7",
                      doc="card set: the numbers changed from the rulebook's, as card.field=value;... (cardtable cards)")

    def __post_init__(self) -> None:
        if self.cards:  # ZETA-I-CT7: checked (naming the card and the rule) and written canonically
            object.__setattr__(self, "cards", canonical_cards(self.cards))
        if not 4 <= self.deck_size <= 60:  # also checked by the flag's range (from_flags); direct construction too
            raise ValueError(f"rule flag 'deck_size' must be one of: the whole numbers 4-60; got {self.deck_size}")
        if self.construction_limits:
            pool = sum(card_numbers(self.cards).limits)  # 50 with the rulebook's copy limits
            if self.deck_size > pool:
                raise ValueError(f"rule flag 'deck_size' above {pool} needs construction_limits=false "
                                 f"(the pool holds {pool})")
