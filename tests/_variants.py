"""A Hypothesis strategy of custom rule sets: every field of ``Variant``
drawn within and at the edges of the ranges RULES.md and ``Variant``'s own
checks give (C-2 .. C-4, T-2, T-3, T-6, T-7, T-9, T-12, T-13, T-20 .. T-22,
T-31 .. T-35, H-1 .. H-7), the dependent fields drawn so that most draws are
accepted.  ``variants()`` yields only accepted rule sets; the draws that
``Variant`` refuses are counted in ``REFUSED`` (and ``DRAWN``), so a test
can show how many it threw away."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import assume, event
from hypothesis import strategies as st

from rook_core import Variant, VariantError
from rook_core.cards import BIRD, Card, parse_card

DRAWN: Counter[str] = Counter()   # "drawn" / "refused" over the session, and the refusals by message
COLORS = "BGRY"


def _rank_value(one_high: bool, rank: int) -> int:
    return 15 if one_high and rank == 1 else rank


@st.composite
def variant_fields(draw: st.DrawFn) -> dict[str, Any]:
    """The fields of a rule set, possibly one that ``Variant`` refuses."""
    # C-3: the ranks of the deck: a preset's, a few, or one
    ranks = draw(st.one_of(
        st.sampled_from([tuple(range(5, 15)), tuple(range(1, 15)), (1,) + tuple(range(5, 15))]),
        st.sets(st.integers(1, 14), min_size=1, max_size=14).map(lambda s: tuple(sorted(s))),
        st.sets(st.integers(1, 14), min_size=1, max_size=4).map(lambda s: tuple(sorted(s)))),
        label="ranks")
    if draw(st.booleans(), label="shuffle ranks"):
        ranks = tuple(draw(st.permutations(ranks)))
    bird = draw(st.booleans(), label="bird")                          # C-2
    one_high = draw(st.booleans(), label="one_high")                  # C-4
    values = sorted(_rank_value(one_high, r) for r in ranks)
    # C-4: a numeric bird rank lies strictly between two ranks of the deck, on a half rank
    halves = [x / 2 for x in range(2 * values[0] + 1, 2 * values[-1]) if x % 2 or x // 2 not in values]
    bird_rank: Any = None
    if bird:
        choices: list[Any] = ["high", "low"] + [h if h % 1 else int(h) for h in halves]
        bird_rank = draw(st.sampled_from(choices), label="bird_rank")
    # section 4: permanent trumps, in or out of the ranks
    cards = [f"{c}{r}" for c in COLORS for r in range(1, 15)]
    permanent = tuple(draw(st.lists(st.sampled_from(cards), max_size=3, unique=True), label="permanent_trumps"))
    deck = {int(Card.of(c, r)) for c in range(4) for r in ranks} | {int(parse_card(t)) for t in permanent}
    if bird:
        deck.add(BIRD)
    n = len(deck)
    # T-2: four hands and a nest make the deck
    top = max(1, n // 4)
    hand_size = draw(st.one_of(st.just(top), st.integers(max(1, top - 3), top), st.integers(1, top)), label="hand_size")
    nest_size = n - 4 * hand_size
    pass_cards = draw(st.one_of(st.just(0), st.just(0), st.integers(1, hand_size)), label="pass_cards")
    nest_exchange = "swap_one" if nest_size == 1 and draw(st.booleans(), label="swap_one") else "discard"
    # T-7 / H-3: the steps after bidding
    steps = ["trump"] + (["nest"] if nest_size else []) + (["pass"] if pass_cards else [])
    h3 = nest_size > 0 and nest_exchange == "discard" and draw(st.booleans(), label="H-3")
    if h3:
        order = ["nest", "trump", "discard"] + (["pass"] if pass_cards else [])
    else:
        order = list(draw(st.permutations(steps), label="post_bid_order"))
    discard_counters = draw(st.booleans(), label="discard_counters")
    discard_trump_counters = (not discard_counters and "trump" in order
                              and order.index("trump") < order.index("discard" if h3 else "nest")
                              if nest_size else False) and draw(st.booleans(), label="H-4")
    # T-12: counters on ranks of the deck and on single cards of the deck
    point = st.one_of(st.sampled_from([0, 5, 10, 15, 20]), st.integers(0, 40), st.sampled_from([5, 10, 200, 10_000]))
    counters: list[tuple[Any, int]] = []
    for r in draw(st.lists(st.sampled_from(ranks), unique=True, max_size=len(ranks)), label="counter ranks"):
        counters.append((r, draw(point, label="rank points")))
    singles = sorted(deck)
    for c in draw(st.lists(st.sampled_from(singles), unique=True, max_size=3), label="counter cards"):
        counters.append((str(Card(c)), draw(point, label="card points")))
    last_trick_bonus = draw(st.sampled_from([0, 0, 10, 20, 1_000]), label="last_trick_bonus")
    most_tricks_bonus = draw(st.sampled_from([0, 0, 20]), label="most_tricks_bonus") if hand_size % 2 else 0
    partial = dict(ranks=ranks, bird=bird, bird_rank=bird_rank, one_high=one_high, permanent_trumps=permanent,
                   counters=tuple(counters), last_trick_bonus=last_trick_bonus,
                   most_tricks_bonus=most_tricks_bonus, hand_size=hand_size, nest_size=nest_size)
    try:
        total = Variant(**partial, min_bid=1, bid_step=1, max_bid=1, post_bid_order=tuple(order),
                        bird_anytime=False, nest_exchange=nest_exchange, pass_cards=pass_cards).total_points
    except VariantError:
        total = 0
    # T-3: bids on a grid of bid_step up to the points of a hand
    bid_step = draw(st.sampled_from([1, 5, 5, 10, max(1, min(total, 1000))]), label="bid_step")
    steps_up = max(1, min(total, 1000) // bid_step)
    max_bid = bid_step * draw(st.one_of(st.just(steps_up), st.integers(1, steps_up)), label="max_bid")
    min_bid = bid_step * draw(st.one_of(st.just(1), st.integers(1, max(1, max_bid // bid_step))), label="min_bid")
    bidding = draw(st.sampled_from(["plain", "opener_must_bid", "stick_the_dealer", "dealer_takes_minimum"]),
                   label="all pass")
    return dict(partial, name="drawn", min_bid=min_bid, bid_step=bid_step, max_bid=max_bid,
                jump_bids=draw(st.booleans(), label="jump_bids"),
                opener_must_bid=bidding == "opener_must_bid", stick_the_dealer=bidding == "stick_the_dealer",
                dealer_takes_minimum=bidding == "dealer_takes_minimum",
                post_bid_order=tuple(order), nest_exchange=nest_exchange,
                discard_counters=discard_counters, discard_trump_counters=discard_trump_counters,
                exposed_nest=nest_size > 0 and draw(st.booleans(), label="exposed_nest"),
                pass_cards=pass_cards,
                first_lead=draw(st.sampled_from(["dealer_left", "declarer"]), label="first_lead"),
                bird_anytime=bird and draw(st.booleans(), label="bird_anytime"),
                must_trump=draw(st.booleans(), label="must_trump"),
                nest_to=draw(st.sampled_from(["last_trick", "declarer"]), label="nest_to"),
                made_scores=draw(st.sampled_from(["points", "bid"]), label="made_scores"),
                set_loses=draw(st.sampled_from(["points", "bid"]), label="set_loses"),
                moon_score=draw(st.sampled_from([0, 0, 1, 360, 10_000]), label="moon_score"),
                target=draw(st.one_of(st.sampled_from([1, 300, 2**31 - 1]), st.integers(1, 1000)), label="target"),
                tie_to_team_0=draw(st.booleans(), label="tie_to_team_0"),
                win_on_own_bid=draw(st.booleans(), label="win_on_own_bid"),
                first_dealer=draw(st.integers(0, 3), label="first_dealer"),
                penalty_points=draw(st.sampled_from([0, 40, 10_000]), label="penalty_points"))


@st.composite
def variants(draw: st.DrawFn) -> Variant:
    """An accepted custom rule set (refused draws are counted and discarded)."""
    fields = draw(variant_fields())
    DRAWN["drawn"] += 1
    try:
        v = Variant(**fields)
    except VariantError as e:
        DRAWN["refused"] += 1
        DRAWN["refused: " + str(e).split(": ", 1)[-1][:60]] += 1
        event("refused")
        assume(False)
        raise AssertionError("unreachable") from e
    event("accepted")
    return v
