"""The game level checked against docs/RULES.md: every preset played in seeded
games (random actions and the bots), with each hand's score, the running
totals, the end of the game, the deal's rotation, the first speaker and the
first lead recomputed here from the rules' words (T-1, T-3, T-6, T-8, T-12 ..
T-14, T-30 .. T-35, H-1, H-2, H-6, H-7), plus the rare cases built on purpose:
ties at the target, both teams over it in one hand, the stuck dealer, hands
thrown in.  Undo, JSON and refused actions are checked at every step."""

from __future__ import annotations

import json
import random

import pytest

from rook_core import Game, HandState, Variant
from rook_core.actions import PENALTY, Phase, parse_action
from rook_core.bots.agents import act_for, make_agent
from rook_core.cards import CardSet
from rook_core.errors import RookError
from rook_core.hosting import HostedGame
from rook_core.variant import PRESETS

PASS = parse_action("pass")
FLAGS: list[dict[str, object]] = [{}, {"tie_to_team_0": True}, {"win_on_own_bid": True},
                                  {"tie_to_team_0": True, "win_on_own_bid": True}]


# ------------------------------------------------------------ the rules, plainly
def card_points(v: Variant, card: int) -> int:
    """T-12: a counter by its name ("R1", "Rook") or by its rank in every color."""
    name = CardSet(1 << card).names()[0]
    named = {k: p for k, p in v.counters if isinstance(k, str)}
    if name in named:
        return named[name]
    if name == "Rook":
        return 0
    return sum(p for k, p in v.counters if isinstance(k, int) and int(name[1:]) == k)


def mask_points(v: Variant, mask: int) -> int:
    return sum(card_points(v, c) for c in range(64) if mask >> c & 1)


def total_points(v: Variant) -> int:
    """T-14: the points of a hand, whoever takes them."""
    return mask_points(v, v.deck_mask) + v.last_trick_bonus + v.most_tricks_bonus


def expected_hand(v: Variant, h: HandState) -> tuple[tuple[int, int], tuple[int, int]]:
    """The teams' points (T-13, T-14, section 4) and scores (T-30 .. T-32, H-1) of a played hand."""
    tricks = h.trick_records()
    assert len(tricks) == v.hand_size
    pts, won = [0, 0], [0, 0]
    for _, cards, winner, _ in tricks:
        pts[winner % 2] += sum(card_points(v, c) for _, c in cards)
        won[winner % 2] += 1
    last = tricks[-1][2] % 2
    d = h.declarer
    nest_team = d % 2 if v.nest_to == "declarer" and d is not None else last
    pts[nest_team] += mask_points(v, h.nest_mask)
    pts[last] += v.last_trick_bonus
    if won[0] != won[1]:
        pts[0 if won[0] > won[1] else 1] += v.most_tricks_bonus
    assert d is not None
    team, bid = d % 2, h.high_bid
    score = [0, 0]
    score[1 - team] = pts[1 - team]                                          # T-30
    if pts[team] >= bid:                                                     # T-31
        score[team] = bid if v.made_scores == "bid" else pts[team]
    else:                                                                    # T-32
        score[team] = -bid if v.set_loses == "bid" else -pts[team]
    for t in (0, 1):                                                         # H-1
        if v.moon_score and pts[t] == sum(pts):
            score[t] = v.moon_score
    return (pts[0], pts[1]), (score[0], score[1])


def expected_winner(v: Variant, totals: tuple[int, int], declarer: int | None) -> int | None:
    """T-34, H-6, H-7 after a played hand."""
    if max(totals) < v.target:
        return None
    if totals[0] == totals[1]:
        if not v.tie_to_team_0:
            return None                                                      # T-34: another hand
        lead = 0                                                             # H-6
    else:
        lead = 0 if totals[0] > totals[1] else 1
    if v.win_on_own_bid and (declarer is None or declarer % 2 != lead):   # H-7
        return None
    return lead


# ------------------------------------------------------------ a checked game
def play_checked(v: Variant, seed: int, bots: bool, max_hands: int = 30, penalties: bool = False) -> Game:
    """Play a game, checking every step and every hand's end against the rules."""
    g = Game(v, seed)
    rng = random.Random(seed)
    agents = [make_agent("heuristic" if s % 2 else "random", v, seed * 4 + s) for s in range(4)] if bots else None
    dealer, totals = g.first_dealer, (0, 0)
    while not g.is_over and g.hand_number <= max_hands:
        h, n = g.current, len(g.hands)
        assert h.dealer == dealer                                            # T-1, T-6
        if len(h) == 0:
            assert h.to_move == (dealer + 1) % 4                             # T-3
        seat = h.to_move
        assert seat is not None
        legal = g.legal_actions()
        action = act_for(agents[seat], h, seat) if agents else rng.choice(legal)
        before, doc = g.clone(), g.to_json()
        refused = rng.choice([a for a in range(256) if a not in legal and a not in (PENALTY, PENALTY + 1)])
        for a, s in ((refused, seat), (action, (seat + 1) % 4)):
            with pytest.raises(RookError):
                g.apply(a, s)
            assert g == before and g.to_json() == doc                       # a refused action changes nothing
        if penalties and rng.random() < 0.03:
            g.apply(PENALTY + rng.randrange(2))                              # T-35
        else:
            g.apply(action, seat)
        undone = g.clone()
        undone.undo()
        assert undone == before and undone.to_json() == doc and undone.totals == before.totals
        if len(g.hands) == n and not g.is_over:
            continue
        last = g.hands[n - 1]
        if last.phase == Phase.THROWN_IN:                                    # T-6: the same dealer again
            assert last.declarer is None and not v.opener_must_bid
            assert last.score == last.penalties
        else:
            assert last.phase == Phase.DONE
            first_leader = last.trick_records()[0][0]                        # T-8
            assert first_leader == (last.declarer if v.first_lead == "declarer" else (dealer + 1) % 4)
            points, score = expected_hand(v, last)
            assert last.points == points and sum(points) == total_points(v)
            assert tuple(s - p for s, p in zip(last.score, last.penalties)) == score
            dealer = (dealer + 1) % 4                                        # T-1
        totals = (totals[0] + last.score[0], totals[1] + last.score[1])
        assert g.totals == totals
        want = expected_winner(v, totals, last.declarer) if last.phase == Phase.DONE else None
        assert g.winner == want and g.is_over == (want is not None)
        assert len(g.hands) == n + (want is None)                            # the next hand, or the end
        copy = Game.from_json(json.dumps(g.to_json()))
        assert copy == g and copy.totals == g.totals and copy.winner == g.winner
    if g.is_over:
        assert g.legal_actions() == [] and g.to_move is None
        with pytest.raises(RookError):
            g.apply(PENALTY)
        reopened = g.clone()
        reopened.undo()                                                      # undo after the end reopens
        assert not reopened.is_over and reopened.legal_actions() and len(reopened.hands) == len(g.hands)
    return g


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_T30_T34_seeded_games_of_every_preset(name: str) -> None:
    v = PRESETS[name]
    ended = 0
    for i, flags in enumerate(FLAGS):
        small = v.replace(target=v.target // 3, **flags)
        g = play_checked(small, i, bots=i % 2 == 1, max_hands=10, penalties=i == 2)
        ended += g.is_over
    assert ended


@pytest.mark.parametrize("name", ["tournament", "house-180", "partnership-57"])
def test_T33_the_preset_target_ends_a_bot_game(name: str) -> None:
    v = PRESETS[name]
    g = play_checked(v, 7, bots=True, max_hands=40)
    assert g.is_over and max(g.totals) >= v.target


# ------------------------------------------------------------ built on purpose
def _record(v: Variant, seed: int, hands: int) -> tuple[list[list[int]], list[tuple[tuple[int, int], int | None]]]:
    """A bots' game to a target never reached: each hand's actions, and the totals and declarer after it."""
    big = v.replace(target=10_000)
    g = Game(big, seed)
    agents = [make_agent("heuristic", big, seed * 4 + s) for s in range(4)]
    actions: list[list[int]] = [[]]
    after: list[tuple[tuple[int, int], int | None]] = []
    while len(after) < hands:
        n, h = len(g.hands), g.current
        a = act_for(agents[h.to_move], h, h.to_move)
        g.apply(a)
        actions[-1].append(a)
        if len(g.hands) > n:
            after.append((g.totals, g.hands[n - 1].declarer))
            actions.append([])
    return actions, after


def _replay(v: Variant, seed: int, actions: list[list[int]], k: int, penalties: list[int]) -> Game:
    """Replay hands 0..k, with penalties against ``penalties`` before hand k's last card."""
    g = Game(v, seed)
    for i in range(k + 1):
        for j, a in enumerate(actions[i]):
            if i == k and j == len(actions[i]) - 1:
                for team in penalties:
                    g.apply(PENALTY + team)
            g.apply(a)
    return g


def _both_over_cases(name: str) -> list[tuple[int, int, list[list[int]], tuple[int, int], int]]:
    """(seed, hand k, actions, totals, declarer) where the lower total after hand k is above every total before it."""
    v = PRESETS[name].replace(penalty_points=5)
    out = []
    for seed in range(40):
        actions, after = _record(v, seed, 6)
        for k in range(1, len(after)):
            (a, b), d = after[k]
            if d is not None and min(a, b) > max(0, *(max(t) for t, _ in after[:k])):
                out.append((seed, k, actions, (a, b), d))
                break
        if len({c[4] % 2 for c in out}) == 2 and len(out) >= 3:
            break
    return out


@pytest.mark.parametrize("name", ["house-180", "partnership-57", "crowsnest"])
def test_T34_H6_H7_ties_and_both_teams_over_the_target(name: str) -> None:
    cases = _both_over_cases(name)
    assert {d % 2 for *_, d in cases} == {0, 1}
    for seed, k, actions, (a, b), d in cases:
        low, high = min(a, b), max(a, b)
        for flags in FLAGS:
            v = PRESETS[name].replace(penalty_points=5, target=low, **flags)
            # both teams over the target in one hand, unequal: the higher wins (T-34) on its own bid (H-7)
            g = _replay(v, seed, actions, k, [])
            lead = 0 if a > b else 1
            want = None if flags.get("win_on_own_bid") and d % 2 != lead else lead
            assert g.totals == (a, b) and g.winner == want and len(g.hands) == k + 1 + (want is None)
            # equal at or above the target: another hand (T-34), or seats 0 and 2 (H-6, with H-7 on their bid)
            g = _replay(v, seed, actions, k, [lead] * ((high - low) // 5))
            assert g.totals == (low, low)
            tie = 0 if flags.get("tie_to_team_0") and (not flags.get("win_on_own_bid") or d % 2 == 0) else None
            assert g.winner == tie and g.is_over == (tie is not None)
            if tie is None:                                                 # the extra hand, dealt by the next seat
                assert len(g.hands) == k + 2 and g.current.dealer == (g.hands[k].dealer + 1) % 4
                assert g.current.phase == Phase.BID and g.current.to_move == (g.current.dealer + 1) % 4
            else:
                g.undo()
                assert not g.is_over and len(g.hands) == k + 1


def test_T6_a_hand_everyone_passed_is_dealt_again_by_the_same_dealer() -> None:
    for name in ("tournament", "crowsnest", "dixie"):
        g = Game(name, 5, first_dealer=2)
        g.apply(PENALTY + 1)
        for _ in range(4):
            g.apply(PASS)
        assert len(g.hands) == 2 and g.hands[0].phase == Phase.THROWN_IN
        assert g.current.dealer == 2 and g.current.to_move == 3 and g.totals == (0, -40)
        assert g.hands_begun == 1 and g.hand_number == 2
        assert g.current.hand_mask(0) != g.hands[0].hand_mask(0)            # a new shuffle
        assert Game.from_json(g.to_json()) == g
        g.undo()
        assert len(g.hands) == 1 and g.current.phase == Phase.BID and g.current.to_move == 2   # the last to pass


def test_T6_the_opener_must_bid_in_partnership_57() -> None:
    g = Game("partnership-57", 5, first_dealer=3)
    assert g.current.to_move == 0 and PASS not in g.legal_actions()
    with pytest.raises(RookError):
        g.apply(PASS)


def test_H2_the_stuck_dealer_declares_at_the_minimum() -> None:
    g = Game("house-180", 5, first_dealer=1)
    for _ in range(3):
        g.apply(PASS)
    h = g.current
    assert h.declarer == 1 and h.high_bid == 100 and h.bids() == [(2, None), (3, None), (0, None)]
    assert h.phase != Phase.BID and h.to_move == 1
    g = Game("kentucky-rook", 5, first_dealer=3)                         # stick_the_dealer: the dealer bids
    for _ in range(3):
        g.apply(PASS)
    assert g.current.to_move == 3 and PASS not in g.legal_actions()
    assert parse_action("bid 100") in g.legal_actions()


def test_T35_penalties_count_at_once_in_the_totals() -> None:
    g = Game("tournament", 2)
    g.apply(PENALTY)
    assert g.totals == (-40, 0)
    rng = random.Random(2)
    while g.hand_number == 1:
        g.apply(rng.choice(g.legal_actions()))
    assert g.totals == (g.hands[0].score[0], g.hands[0].score[1])
    assert g.hands[0].score[0] == g.hands[0].penalties[0] + expected_hand(g.variant, g.hands[0])[1][0]


def test_T34_a_hosted_game_ends_or_stops_as_the_rules_say() -> None:
    for name in ("house-180", "crowsnest"):
        hg = HostedGame.create({"game": name, "seed": 1, "max_hands": 3})
        bots = [hg.bot("heuristic", s) for s in range(4)]
        while not hg.is_over:
            seat = hg.to_move
            assert seat is not None
            action = hg.bot_action(bots[seat], seat)
            state, moves = hg.state.to_json(), hg.moves
            with pytest.raises(RookError):
                hg.apply("penalty 0", seat, penalties=False)
            assert (hg.state.to_json(), hg.moves) == (state, moves)
            hg.apply(action, seat)
            hg.undo()
            assert (hg.state.to_json(), hg.moves) == (state, moves)
            hg.apply(action, seat)
        result = hg.result()
        assert result is not None
        g = hg.state
        assert isinstance(g, Game) and result["totals"] == list(g.totals)
        if hg.stopped:
            assert result["winner_team"] is None and g.hand_number == 4 and not g.is_over
        else:
            assert result["winner_team"] == g.winner is not None


@pytest.mark.parametrize(("name", "moon", "seeds"), [("house-180", 0, [402, 1656, 2438, 2473]),
                                                     ("tournament", 250, [143, 175, 200, 214])])
def test_H1_a_set_declarer_loses_its_bid_while_the_defenders_shoot_the_moon(name: str, moon: int,
                                                                            seeds: list[int]) -> None:
    v = PRESETS[name].replace(moon_score=moon) if moon else PRESETS[name]
    for seed in seeds:
        h = HandState.deal(v, seed, seed % 4)
        rng = random.Random(seed)
        while not h.is_over:
            h.apply(rng.choice(h.legal_actions()))
        assert h.declarer is not None
        team = h.declarer % 2
        assert h.points[team] == 0                                           # the defenders took every point
        assert h.score[team] == -h.high_bid and h.score[1 - team] == v.moon_score
        assert (h.points, h.score) == expected_hand(v, h)
