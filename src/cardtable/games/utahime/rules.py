"""The Utahime rule variants: one flag per variant of the interpretation ledger (UTA-I*)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.rules import RulesBase, flag

from .cards import COSMIC_NAMES
from .cardset import split_cards

MAX_TURNS_CAP = 1000
"""The largest ``max_turns`` accepted; ``termination_bound`` is computed for it (UTA-R57)."""
HAND_LIMIT_CAP = 20
"""The largest ``hand_limit`` accepted (UTA-I7); the 51-card deck must deal the opening hand."""


@dataclass(frozen=True, kw_only=True)
class UtahimeRules(RulesBase):
    """Every variant flag of the Utahime ledger; the defaults are the ledger's defaults."""

    GAME: ClassVar[str] = "utahime"
    RULES_VERSION: ClassVar[int] = 1

    ace_value: int = flag(1, choices=(1, 14), ledger="UTA-I17", doc="the number of an Ace in block comparisons")
    forced_block: bool = flag(False, ledger="UTA-I20", doc="a defender with a legal block must block")
    block_card_scores: bool = flag(True, ledger="UTA-I22",
                                   doc="a blocking card goes face up (false: face down) to the defender's discard")
    score_only_self_played: bool = flag(False, ledger="UTA-I34",
                                        doc="only face-up cards the owner played from hand count for score")
    rank_effects_on_block: bool = flag(False, ledger="UTA-I27",
                                       doc="a block with a printed 2-10 registers its rank effect too")
    ban_applies_to_heart_next: bool = flag(False, ledger="UTA-I28",
                                           doc="a forbidden suit also forbids that suit as ♥NEXT fodder")
    optional_draws: bool = flag(False, ledger="UTA-I32", doc="success and joker draws are optional (choose how many)")
    heart_ace_extra_draw: bool = flag(False, ledger="UTA-I36", doc="a successful ♥A draws 2 instead of 1")
    diamond_ace_vs_diamond_next: bool = flag(False, ledger="UTA-I42", doc="♦A may react against ♦NEXT")
    jqk_unlock_mode: str = flag("per_card", choices=("per_card", "any_set_unlocks"), ledger="UTA-I45",
                                doc="each J/Q/K must be set itself, or any one set J/Q/K unlocks all")
    jqk_same_turn_play: bool = flag(False, ledger="UTA-I46", doc="a J/Q/K may be played in the turn it was set")
    jqk_set_costs_action: bool = flag(False, ledger="UTA-I46",
                                      doc="setting a J/Q/K is the main action (one card) instead of a free action")
    jqk_set_required_for_block: bool = flag(True, ledger="UTA-I25", doc="a J/Q/K must be set to block too")
    starting_energy: int = flag(0, minimum=0, ledger="UTA-I48", doc="energy of each player at the start")
    second_player_extra_energy: int = flag(0, minimum=0, ledger="UTA-I-CT23",
                                           doc="extra energy of the player who moves second, at the start "
                                               "(a seat compensation)")
    energy_cap: int = flag(0, minimum=0, ledger="UTA-I48",
                           doc="largest energy a player may hold; 0 means no cap (the ledger's null)")
    premium_attack_cost: int = flag(1, minimum=0, ledger="UTA-I49", doc="energy paid to attack with an A, J, Q or K")
    free_flip_for_energy: bool = flag(False, ledger="UTA-I52",
                                      doc="flipping a face-up discard for +1 energy is also a free action")
    joker_timing: str = flag("instead_of_action", choices=("instead_of_action", "any_time_ends_turn"),
                             ledger="UTA-I56", doc="the joker is the main action, or also usable after the attack")
    diamond_next_pile: str = flag("opponent", choices=("opponent", "self"), ledger="UTA-I60",
                                  doc="whose discard pile the ♦NEXT card goes to")
    diamond_next_penalty_always: bool = flag(True, ledger="UTA-I61",
                                             doc="♦NEXT's -2 applies whenever declared (false: only if a card was placed)")
    club_next_extra_draw: bool = flag(False, ledger="UTA-I63", doc="a successful ♣NEXT draws 2 instead of 1")
    club_next_penalty_only_on_success: bool = flag(True, ledger="UTA-I64",
                                                   doc="♣NEXT's +1.5 applies only after a successful ♣NEXT")
    heart_next_limit: str = flag("per_turn", choices=("per_turn", "per_game"), ledger="UTA-I67",
                                 doc="♥NEXT at most once per turn, or once per game, per player")
    heart_next_after_block: bool = flag(False, ledger="UTA-I67",
                                        doc="the defender may also use ♥NEXT right after blocking")
    heart_next_source: str = flag("hand", choices=("hand", "played_card"), ledger="UTA-I68",
                                  doc="♥NEXT's heart comes from the hand, or is the heart card just played")
    cosmic_pool: str = flag(",".join(COSMIC_NAMES), ledger="UTA-I10",
                            doc="the cosmic cards each player has, comma-separated subset of H4,H6,S4,C6,C7,D6")
    cosmic_timing: str = flag("end_of_own_turn", choices=("end_of_own_turn", "any_time_own_turn"), ledger="UTA-I11",
                              doc="a cosmic card is taken at the end step, or at any time of one's own turn")
    wished_card_public: bool = flag(False, ledger="UTA-I14", doc="both wished cards are shown once both are chosen")
    first_player: str = flag("random", choices=("random", "p1", "p2"), ledger="UTA-I16",
                             doc="who goes first when option cost and count are equal")
    final_tiebreak: str = flag("draw", choices=("draw", "fewer_option_cards_then_draw"), ledger="UTA-I77",
                               doc="the result when score and option cost are both equal")
    end_on_empty_hand: bool = flag(True, ledger="UTA-I74", doc="E1: the game ends when a player starts a turn with no cards")
    empty_hand_joker_rescue: bool = flag(True, ledger="UTA-I74",
                                         doc="E1: an empty-handed player with a face-up joker must use it instead")
    max_turns: int = flag(MAX_TURNS_CAP, minimum=1, maximum=MAX_TURNS_CAP, ledger="UTA-I75",
                          doc="guard: the game is scored after this turn")
    hand_limit: int = flag(10, minimum=1, maximum=HAND_LIMIT_CAP, ledger="UTA-I7",
                           doc="the most cards a hand may hold, set cards included")
    option_cost_budget: int = flag(28, minimum=0, ledger="UTA-I4", doc="the most total cost of one player's option cards")
    option_max_copies: int = flag(2, minimum=0, ledger="UTA-I4", doc="the most option cards of one name per player")
    option_reusable: bool = flag(False, ledger="UTA-I5",
                                 doc="a used option card turns face up again at its owner's next turn")
    cards: str = flag("", ledger="UTA-I-CT24",
                      doc="card set: option costs, hero uses and cosmic cards changed from the rulebook's, "
                          "as card.field=value;... (cardtable cards)")

    def __post_init__(self) -> None:
        """Cross-flag and range checks (ValueError names the flag and the allowed range)."""
        if self.cards:  # UTA-I-CT24: checked (naming the card and the rule); cosmic cards go to cosmic_pool
            cards, left_out = split_cards(self.cards)
            object.__setattr__(self, "cards", cards)
            if left_out:
                pool = ",".join(n for n in self.cosmic_names() if n not in left_out)
                object.__setattr__(self, "cosmic_pool", pool)
        if self.starting_energy < 0:
            raise ValueError(f"rule flag 'starting_energy' must be >= 0; got {self.starting_energy}")
        if self.energy_cap < 0:
            raise ValueError(f"rule flag 'energy_cap' must be >= 0 (0 means no cap); got {self.energy_cap}")
        if self.energy_cap and self.starting_energy > self.energy_cap:
            raise ValueError("rule flag 'starting_energy' must not exceed 'energy_cap'")
        if self.premium_attack_cost < 0:
            raise ValueError(f"rule flag 'premium_attack_cost' must be >= 0; got {self.premium_attack_cost}")
        if not 1 <= self.max_turns <= MAX_TURNS_CAP:
            raise ValueError(f"rule flag 'max_turns' must be in 1..{MAX_TURNS_CAP}; got {self.max_turns}")
        if not 1 <= self.hand_limit <= HAND_LIMIT_CAP:
            raise ValueError(f"rule flag 'hand_limit' must be in 1..{HAND_LIMIT_CAP}; got {self.hand_limit}")
        if self.option_cost_budget < 0 or self.option_max_copies < 0:
            raise ValueError("rule flags 'option_cost_budget' and 'option_max_copies' must be >= 0")
        self.cosmic_names()

    def cosmic_names(self) -> tuple[str, ...]:
        """The cosmic pool as card names, in pool order (ValueError if the flag is malformed)."""
        text = self.cosmic_pool.strip()
        names = tuple(n.strip().upper() for n in text.split(",")) if text else ()
        for n in names:
            if n not in COSMIC_NAMES:
                raise ValueError(f"rule flag 'cosmic_pool' may list only {', '.join(COSMIC_NAMES)}; got {n!r}")
        if len(set(names)) != len(names):
            raise ValueError("rule flag 'cosmic_pool' lists a card twice; each cosmic card exists once")
        return tuple(n for n in COSMIC_NAMES if n in names)
