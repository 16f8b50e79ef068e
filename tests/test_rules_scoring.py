"""Behaviour tests of counting and scoring: RULES.md T-12 .. T-14, T-30 .. T-35,
with the worked examples of the seeds played out card by card.

The hands are built from a trick plan: every trick lists the card each seat
plays, so the winner and the points of every trick can be read off by hand.
"""

from __future__ import annotations

import pytest
from _support import finish_game_hand

from rook_core import PRESETS, CardSet, HandState, IllegalActionError, Phase, Variant
from rook_core.actions import PASS, PENALTY
from rook_core.game import Game

Plan = list[tuple[dict[int, str], int]]  # (seat -> card, expected winner)


def color_trick(color: str, ranks: list[int], winner: int) -> tuple[dict[int, str], int]:
    """A trick of one color: ``winner`` holds the highest rank, the other seats
    (in seat order) the others."""
    others = [s for s in range(4) if s != winner]
    t = {winner: f"{color}{ranks[0]}"}
    for s, r in zip(others, ranks[1:]):
        t[s] = f"{color}{r}"
    return t, winner


def plan_hands(plan: Plan) -> list[list[str]]:
    hands: list[list[str]] = [[], [], [], []]
    for trick, _ in plan:
        assert sorted(trick) == [0, 1, 2, 3]
        for s, c in trick.items():
            hands[s].append(c)
    return hands


def play_plan(h: HandState, plan: Plan) -> None:
    """Play the plan trick by trick; each seat plays its card of the trick in
    turn, the engine checks legality, and each winner is the expected one."""
    assert h.phase == Phase.PLAY
    for k, (trick, win) in enumerate(plan):
        for _ in range(4):
            h.play(trick[h.to_move])
        got = h.tricks[-1]
        assert got["winner"] == win, f"trick {k + 1}: {got}"
    assert h.phase == Phase.DONE


def trick_points_by_team(h: HandState) -> list[int]:
    pts = [0, 0]
    for t in h.tricks:
        pts[t["winner"] % 2] += t["points"]
    return pts


# ------------------------------------------------------------ tournament plans
#
# Trump red, dealer 0, seat 1 bids and is the declarer (team 1 = seats 1, 3),
# seat 1 leads the first trick.  Nest R5 R6 B5 G5 Y7 (15 points); the declarer
# puts the same five cards back.  Color tricks: "A" = 14 13 12 11 (10 points),
# "B" = 10 9 8 7 (10 points).

NEST_41 = "R5 R6 B5 G5 Y7"


def tournament_plan(a_winners: dict[str, int], last_trick: dict[int, str], last_winner: int) -> Plan:
    w = a_winners
    return [
        color_trick("R", [14, 13, 12, 11], w["RA"]),
        color_trick("R", [10, 9, 8, 7], w["RB"]),
        color_trick("B", [14, 13, 12, 11], w["BA"]),
        color_trick("B", [10, 9, 8, 7], w["BB"]),
        color_trick("G", [14, 13, 12, 11], w["GA"]),
        color_trick("G", [10, 9, 8, 7], w["GB"]),
        color_trick("Y", [14, 13, 12, 11], w["YA"]),
        color_trick("Y", [10, 9, 8, 5], w["YB"]),  # Y10 + Y5 = 15 points
        (last_trick, last_winner),                   # B6 G6 Y6 + the Rook: 20 points
    ]


# Plan A: team 1 takes everything but the Y10 trick: 7 x 10 + 20 + nest 15 = 105; team 0: 15.
PLAN_A = tournament_plan(dict(RA=1, RB=1, BA=1, BB=1, GA=3, GB=3, YA=3, YB=0),
                         {0: "B6", 1: "Rook", 2: "G6", 3: "Y6"}, 1)
# Plan B: seat 2 takes G-A, G-B, Y-A too: team 0 = 30 + 15 = 45; team 1 = 40 + 20 + 15 = 75.
PLAN_B = tournament_plan(dict(RA=1, RB=1, BA=1, BB=1, GA=2, GB=2, YA=2, YB=0),
                         {0: "B6", 1: "Rook", 2: "G6", 3: "Y6"}, 1)
# Plan C: as A, but seat 0 holds the Rook and takes the last trick and the nest:
# team 0 = 15 + 20 + 15 = 50, team 1 = 70.
PLAN_C = tournament_plan(dict(RA=1, RB=1, BA=1, BB=1, GA=3, GB=3, YA=3, YB=0),
                         {0: "Rook", 1: "B6", 2: "G6", 3: "Y6"}, 0)


def play_tournament(preset: str | Variant, plan: Plan, bid: int) -> HandState:
    h = HandState.from_hands(preset, plan_hands(plan), nest=NEST_41, dealer=0)
    h.bid(bid)            # seat 1
    while h.phase == Phase.BID:
        h.pass_bid()
    assert h.declarer == 1 and h.high_bid == bid
    h.discard(NEST_41)
    h.name_trump("R")
    assert h.to_move == 1
    play_plan(h, plan)
    return h


def test_T12_T14_plan_a_points_trick_by_trick() -> None:
    h = play_tournament("tournament", PLAN_A, 90)
    assert [t["points"] for t in h.tricks] == [10, 10, 10, 10, 10, 10, 10, 15, 20]
    assert trick_points_by_team(h) == [15, 90]
    assert h.nest_points == 15
    assert h.points == (15, 105)
    assert sum(h.points) == 120
    assert h.tricks_won == (1, 8)


def test_T31_tournament_seed_002_bid_90_took_105_scores_105() -> None:
    h = play_tournament("tournament", PLAN_A, 90)
    assert h.points == (15, 105)
    assert h.made is True
    assert h.score == (15, 105)


def test_T32_tournament_seed_002_bid_95_took_75_scores_minus_95_defenders_45() -> None:
    h = play_tournament("tournament", PLAN_B, 95)
    assert h.points == (45, 75)
    assert h.made is False
    assert h.score == (45, -95)


def test_T31_crowsnest_seed_003_bid_90_took_105_scores_90() -> None:
    h = play_tournament("crowsnest", PLAN_A, 90)
    assert h.points == (15, 105)
    assert h.made is True
    assert h.score == (15, 90)


def test_T32_crowsnest_set_loses_bid() -> None:
    h = play_tournament("crowsnest", PLAN_B, 95)
    assert h.points == (45, 75)
    assert h.score == (45, -95)


def test_T31_made_when_points_equal_the_bid() -> None:
    h = play_tournament("tournament", PLAN_C, 70)
    assert h.points == (50, 70)
    assert h.made is True and h.score == (50, 70)
    h = play_tournament("tournament", PLAN_C, 75)
    assert h.made is False and h.score == (50, -75)


def test_T32_set_loses_points_knob() -> None:
    v = Variant.from_preset("tournament", set_loses="points")
    h = play_tournament(v, PLAN_B, 95)
    assert h.score == (45, -75)


def test_T31_made_scores_bid_knob_and_max_bid() -> None:
    v = Variant.from_preset("tournament", made_scores="bid")
    h = play_tournament(v, PLAN_A, 100)
    assert h.score == (15, 100)
    h = play_tournament("tournament", PLAN_A, 120)  # max bid ends the bidding at once
    assert h.score == (15, -120)


def test_T13_nest_goes_to_the_team_that_takes_the_last_trick() -> None:
    h = play_tournament("tournament", PLAN_C, 70)
    assert h.tricks[-1]["winner"] == 0
    assert trick_points_by_team(h) == [35, 70]
    assert h.points == (35 + 15, 70)  # the defenders get the nest's 15
    h = play_tournament("tournament", PLAN_A, 70)
    assert trick_points_by_team(h) == [15, 90]
    assert h.points == (15, 90 + 15)


def test_T13_nest_points_are_those_of_the_discards() -> None:
    # seat 1 holds R14 R10 B14 B10 G12 G8 Y12 Y9 Rook and picks up R5 R6 B5 G5 Y7
    for discards, value in [("R6 Y7 G12 G8 Y12", 0),          # keeps the nest's counters
                            ("R5 B5 G5 Rook B14", 5 + 5 + 5 + 20 + 10)]:
        h = HandState.from_hands("tournament", plan_hands(PLAN_A), nest=NEST_41, dealer=0)
        h.bid(70)
        for _ in range(3):
            h.pass_bid()
        assert h.dealt_nest == CardSet.parse(NEST_41)
        h.discard(discards)
        assert h.nest == CardSet.parse(discards)
        assert h.nest_points == value
        auto(h)
        last = h.tricks[-1]["winner"] % 2
        expected = trick_points_by_team(h)
        expected[last] += value
        assert list(h.points) == expected
        assert sum(h.points) == 120


def test_T13_nest_to_declarer_knob() -> None:
    v = Variant.from_preset("tournament", nest_to="declarer")
    h = play_tournament(v, PLAN_C, 70)
    assert h.points == (35, 70 + 15)


def test_T14_hand_points_sum_to_variant_total_over_many_deals() -> None:
    for preset, total in [("partnership-57", 200), ("tournament", 120), ("crowsnest", 120),
                          ("crowsnest-100", 100)]:
        assert PRESETS[preset].total_points == total
        for seed in range(12):
            h = HandState.deal(preset, seed=seed)
            auto(h)
            assert h.phase == Phase.DONE
            assert sum(h.points) == total, (preset, seed)
            # points = counters in tricks won + nest and bonus for the last trick
            expected = trick_points_by_team(h)
            last = h.tricks[-1]["winner"] % 2
            expected[last] += h.nest_points + PRESETS[preset].last_trick_bonus
            assert list(h.points) == expected


def auto(h: HandState, bid: int | None = None) -> None:
    """Every seat raises by one step while that stays at most ``bid`` (default:
    the minimum), then passes; then the first legal action every time."""
    v = h.variant
    top = bid or v.min_bid
    while not h.is_over:
        if h.phase == Phase.BID:
            nxt = h.high_bid + v.bid_step if h.high_bid else v.min_bid
            if nxt <= top:
                h.bid(nxt)
            else:
                h.pass_bid()
        else:
            h.apply(h.legal_actions()[0])


@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest", "crowsnest-100"])
def test_T30_T31_T32_score_formula_per_preset(preset: str) -> None:
    v = PRESETS[preset]
    seen = set()
    for seed in range(10):
        for bid in (v.min_bid, v.min_bid + 30):
            h = HandState.deal(preset, seed=seed)
            auto(h, bid)
            d = h.declarer % 2
            pts = h.points
            assert h.score[1 - d] == pts[1 - d]  # T-30
            if pts[d] >= bid:
                assert h.made is True
                assert h.score[d] == (pts[d] if v.made_scores == "points" else bid)  # T-31
            else:
                assert h.made is False
                assert h.score[d] == (-pts[d] if v.set_loses == "points" else -bid)  # T-32
            seen.add(h.made)
    assert seen == {True, False}


# ------------------------------------------------------- partnership-57 plans
#
# Trump red, dealer 0; seats 1 and 2 raise by 5 until seat 1 holds the bid.
# Widow Y1 (15 points), swapped back.  Color tricks: A = 14 13 12 11
# (10 points), B = 10 9 8 7 (10), C = 6 5 4 3 (5).  Trick 13: Y2 R1 R2 Rook
# (35 points, the Rook wins), trick 14: B2 B1 G1 G2 (30 points, B2 leads and
# wins) plus the 20-point last-trick bonus and the widow.

T13 = ({0: "Y2", 1: "R1", 2: "R2", 3: "Rook"}, 3)
T14 = ({0: "B1", 1: "G1", 2: "G2", 3: "B2"}, 3)
RANKS = {"A": [14, 13, 12, 11], "B": [10, 9, 8, 7], "C": [6, 5, 4, 3]}


def p57_plan(order: list[tuple[str, int]]) -> Plan:
    plan = [color_trick(key[0], RANKS[key[1]], w) for key, w in order]
    return plan + [T13, T14]


# Team 1 (declarer): RA RB RC BC GC YB YC = 50, + 35 + 50 + widow 15 = 150; team 0: 50.
PLAN_150 = p57_plan([("RA", 1), ("RB", 1), ("RC", 1), ("BC", 3), ("GC", 3), ("YB", 3), ("YC", 3),
                     ("BA", 0), ("BB", 0), ("GA", 2), ("GB", 2), ("YA", 0)])
# Team 1: RA RB = 20, + 35 + 50 + 15 = 120; team 0: 5 + 25 + 25 + 25 = 80.
PLAN_120 = p57_plan([("RA", 1), ("RB", 1), ("RC", 0), ("BA", 0), ("BB", 0), ("BC", 0),
                     ("GA", 2), ("GB", 2), ("GC", 2), ("YA", 0), ("YB", 0), ("YC", 0)])


def play_p57(plan: Plan, bid: int, variant: str | Variant = "partnership-57") -> HandState:
    final = [CardSet.parse(x) for x in plan_hands(plan)]
    # each seat passes the three lowest cards that its right-hand neighbour ends with
    passes = {s: CardSet(list(final[(s - 1) % 4])[:3]) for s in range(4)}
    dealt = [((final[s] - passes[(s + 1) % 4]) | passes[s]).names() for s in range(4)]
    h = HandState.from_hands(variant, dealt, nest=["Y1"], dealer=0)
    odd = (bid - 70) // 5 % 2 == 1
    while h.phase == Phase.BID:  # seats 1 and 2 raise by 5 (seat 3 once, for parity)
        s = h.to_move
        nxt = h.high_bid + 5 if h.high_bid else 70
        if (s == 1 and nxt <= bid) or (s == 2 and nxt < bid) or (s == 3 and odd and nxt == 80):
            h.bid(nxt)
        else:
            h.pass_bid()
    assert h.declarer == 1 and h.high_bid == bid
    h.name_trump("R")
    h.discard(["Y1"])
    while h.phase == Phase.PASS:
        h.pass_cards(passes[h.to_move])
    assert [h.hand(s) for s in range(4)] == final
    play_plan(h, plan)
    return h


def test_T12_T13_T14_partnership_57_points_trick_by_trick() -> None:
    h = play_p57(PLAN_150, 140)
    assert [t["points"] for t in h.tricks] == [10, 10, 5, 5, 5, 10, 5, 10, 10, 10, 10, 10, 35, 30]
    assert trick_points_by_team(h) == [50, 115]
    assert h.nest_points == 15
    assert h.points == (50, 115 + 15 + 20)  # widow and 20-point bonus with the last trick
    assert sum(h.points) == 200


def test_T31_partnership_57_seed_000_bid_140_took_150_scores_150() -> None:
    h = play_p57(PLAN_150, 140)
    assert h.points == (50, 150)
    assert h.made is True
    assert h.score == (50, 150)


def test_T32_partnership_57_seed_000_bid_160_took_120_scores_minus_120() -> None:
    h = play_p57(PLAN_120, 160)
    assert h.points == (80, 120)
    assert h.made is False
    assert h.score == (80, -120)


def test_T32_partnership_57_set_by_five_loses_its_points() -> None:
    h = play_p57(PLAN_150, 155)
    assert h.score == (50, -150)


def test_T13_last_trick_bonus_only_in_partnership_57() -> None:
    v = Variant.from_preset("partnership-57", last_trick_bonus=0, max_bid=180)
    h = play_p57(PLAN_150, 140, v)
    assert h.points == (50, 130)


# ----------------------------------------------------------------- T-33, T-34

play_game_hand = finish_game_hand


def test_T33_targets_of_the_presets() -> None:
    assert PRESETS["partnership-57"].target == 500
    for p in ("tournament", "crowsnest", "crowsnest-100"):
        assert PRESETS[p].target == 300
    assert Variant.from_preset("partnership-57", target=1000).target == 1000


@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest", "crowsnest-100"])
def test_T33_T34_game_ends_after_the_hand_where_a_team_reaches_the_target(preset: str) -> None:
    g = Game(preset, seed=17)
    target = PRESETS[preset].target
    for _ in range(200):
        if g.is_over:
            break
        play_game_hand(g)
    assert g.is_over
    cum = [0, 0]
    for k, h in enumerate(g.hands):
        assert h.phase == Phase.DONE
        cum = [cum[0] + h.score[0], cum[1] + h.score[1]]
        over = max(cum) >= target and cum[0] != cum[1]
        assert over == (k == len(g.hands) - 1), (k, cum)
    assert tuple(cum) == g.totals
    assert g.winner == (0 if cum[0] > cum[1] else 1)
    with pytest.raises(IllegalActionError) as e:
        g.apply(PASS)
    assert e.value.rule == "T-34"


def _first_deal_where_both_score() -> tuple[int, Game, tuple[int, int]]:
    """Return (seed, game, first-hand score) of the first tournament game
    whose first hand gives both teams different positive scores."""
    for seed in range(50):
        g = Game("tournament", seed=seed)
        play_game_hand(g)
        s = g.hands[0].score
        if min(s) > 0 and s[0] != s[1]:
            return seed, g, s
    pytest.fail("no suitable deal")


def test_T34_team_with_more_points_wins_when_both_reach_target() -> None:
    # find a first hand where both teams score points, then set the target so
    # that both reach it: the higher total wins
    seed, g, s = _first_deal_where_both_score()
    v = Variant.from_preset("tournament", target=min(s))
    g = Game(v, seed=seed)
    play_game_hand(g)
    assert g.hand_number == 1 and g.is_over
    assert g.totals == s
    assert g.winner == (0 if s[0] > s[1] else 1)


def test_T34_tie_at_or_above_target_plays_sudden_death() -> None:
    seed, g, s = _first_deal_where_both_score()
    actions = g.hands[0].history
    diff = abs(s[0] - s[1])
    leader = 0 if s[0] > s[1] else 1
    # a penalty of exactly the difference makes the totals equal (T-35)
    v = Variant.from_preset("tournament", target=min(s), penalty_points=diff)
    g = Game(v, seed=seed)
    g.apply(PENALTY + leader)
    for a in actions:
        g.apply(a)
    assert g.hands[0].phase == Phase.DONE
    assert g.totals == (min(s), min(s))
    assert not g.is_over and g.winner is None
    assert g.hand_number == 2  # another hand is played
    assert g.current.dealer == 1
    for _ in range(20):
        play_game_hand(g)
        if g.is_over:
            break
    t = g.totals
    assert g.is_over and t[0] != t[1] and max(t) >= min(s)
    assert g.winner == (0 if t[0] > t[1] else 1)


def test_T34_no_winner_while_both_below_target() -> None:
    g = Game("tournament", seed=3)
    play_game_hand(g)
    assert max(g.totals) < 300
    assert g.winner is None and not g.is_over
    assert g.hand_number == 2


# ---------------------------------------------------------------------- T-35

def test_T35_penalty_changes_the_score_by_minus_40_at_once() -> None:
    h = HandState.deal("tournament", seed=3)
    to_move = h.to_move
    legal = h.legal_actions()
    h.penalty(1)
    assert h.score == (0, -40)
    assert h.penalties == (0, -40)
    assert h.to_move == to_move and h.legal_actions() == legal
    assert PENALTY not in legal and PENALTY + 1 not in legal
    assert h.phase == Phase.BID
    h.penalty(1)
    h.penalty(0)
    assert h.score == (-40, -80)
    auto(h)
    pts = h.points
    d = h.declarer % 2
    base = [0, 0]
    base[1 - d] = pts[1 - d]
    base[d] = pts[d] if pts[d] >= 70 else -70
    assert h.score == (base[0] - 40, base[1] - 80)


def test_T35_penalty_in_any_phase_and_in_the_game_totals() -> None:
    g = Game("tournament", seed=3)
    g.apply(PENALTY + 0)
    assert g.totals == (-40, 0)
    h = g.current
    h2 = h.clone()
    auto(h2)
    h2.penalty(1)  # even after the hand ended
    assert h2.penalties == (-40, -40)
    play_game_hand(g)
    assert g.totals[0] == g.hands[0].score[0]
    assert g.hands[0].penalties == (-40, 0)


def test_T35_penalty_points_is_a_parameter() -> None:
    v = Variant.from_preset("tournament", penalty_points=25)
    h = HandState.deal(v, seed=1)
    h.penalty(0)
    assert h.score == (-25, 0)


def test_T35_wrong_number_of_discards_is_refused() -> None:
    h = HandState.deal("tournament", seed=3)
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    before = h.raw_bytes()
    cards = list(h.hand(1))
    for n in (0, 1, 4, 6, 14):
        with pytest.raises(IllegalActionError) as e:
            h.discard(cards[:n])
        assert e.value.rule in ("T-20", "T-35")
        assert h.raw_bytes() == before
    assert h.score == (0, 0)  # refusing is not a penalty by itself


def test_T14_seat_to_move_names_the_mover_and_refuses_after_the_hand() -> None:
    """seat_to_move() is to_move while a seat is to act; once the hand is scored
    (T-14) no seat is, and it raises instead of giving None."""
    import random

    h = HandState.deal("tournament", seed=11)
    rng = random.Random(11)
    while not h.is_over:
        assert h.seat_to_move() == h.to_move
        h.apply(rng.choice(h.legal_actions()))
    assert h.to_move is None
    with pytest.raises(IllegalActionError, match="T-14") as e:
        h.seat_to_move()
    assert e.value.rule == "T-14"
