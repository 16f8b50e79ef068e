"""Bidding from a fitted double-dummy evaluator (rook_core.bots.bidding, tools/fit_bidding.py)."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from rook_core import HandState, RookError
from rook_core.actions import BID, PASS, Phase
from rook_core.bots.agents import make_agent
from rook_core.bots.bidding import FEATURES, MODELS, ModelBidder, bid_model, features
from rook_core.bots.heuristic import hand_estimate
from rook_core.sim.simulate import simulate
from rook_core.variant import PRESETS, Variant, get_preset

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("fit_bidding", ROOT / "tools" / "fit_bidding.py")
assert spec and spec.loader
FIT = importlib.util.module_from_spec(spec)
spec.loader.exec_module(FIT)


def test_the_models_file_is_the_tools_and_covers_its_presets() -> None:
    data = json.loads(MODELS.read_text())
    assert data["features"] == list(FEATURES) and data["written_by"].startswith("python tools/fit_bidding.py")
    assert set(data["models"]) == set(FIT.PRESETS)
    assert set(FIT.PRESETS) == set(PRESETS)
    for name in FIT.PRESETS:
        v = get_preset(name)
        m = bid_model(v)
        assert len(m.weights) == len(FEATURES) and m.sigma > 0 and m.deals >= 1000
        assert m.solved_tricks == min(v.hand_size, FIT.SOLVED_TRICKS)


def test_the_fit_solves_only_the_last_tricks_of_a_long_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a 14-card preset the fit's positions are at a trick boundary
    with SOLVED_TRICKS tricks left, and what the declaring team took before
    them counts (T-12)."""
    seen: list[HandState] = []
    real = FIT.solve_many

    def capture(positions: list[HandState], **kw: object) -> list[object]:
        seen.extend(positions)
        return real(positions, **kw)
    monkeypatch.setattr(FIT, "solve_many", capture)
    m = FIT.fit("partnership-57", 6, 1, 9)
    assert m["solved_tricks"] == 9 and len(seen) == 6
    for p in seen:
        assert len(p.trick_records()) == 14 - 9 and not p.trick_ids
        assert all(p.hand_mask(s).bit_count() == 9 for s in range(4))


def test_the_fit_is_reproducible() -> None:
    assert FIT.fit("tournament", 30, 1) == FIT.fit("tournament", 30, 1)


def test_T12_the_features_read_the_hand() -> None:
    v = get_preset("tournament")
    h = HandState.deal(v, 3)
    hand = h.hand_mask(0)
    f = features(v, hand, 2)
    assert f[0] == 1 and f[1] == hand_estimate(v, hand, 2)
    assert f[2] == sum(v.points_table[c] for c in range(64) if hand >> c & 1)


@pytest.mark.parametrize("preset", ["tournament", "crowsnest"])
def test_T3_the_model_bidder_bids_exactly_when_its_odds_reach_the_threshold(preset: str) -> None:
    v = get_preset(preset)
    rng = random.Random(preset)
    bidder = ModelBidder(v, 1, threshold=0.4)
    model = bid_model(v)
    seen = {"bid": 0, "pass": 0}
    for seed in range(60):
        h = HandState.deal(v, seed, dealer=seed % 4)
        while h.phase == Phase.BID:
            obs = h.observe(h.to_move)
            a = bidder.act(obs)
            bids = sorted(x for x in obs["legal_actions"] if x > BID)
            if PASS in obs["legal_actions"] and bids:
                trump, _ = model.best(v, obs.hand)
                odds = model.make_rate(v, obs.hand, trump, bids[0] - BID, model.margin)
                assert a == (bids[0] if odds >= 0.4 else PASS)
                seen["bid" if a != PASS else "pass"] += 1
            h.apply(a if rng.random() < 0.8 else rng.choice(obs["legal_actions"]))
    assert seen["bid"] and seen["pass"]


def test_the_odds_fall_with_the_bid() -> None:
    v = get_preset("tournament")
    m = bid_model(v)
    hand = HandState.deal(v, 8).hand_mask(2)
    rates = [m.make_rate(v, hand, 1, b) for b in range(70, 125, 5)]
    assert rates == sorted(rates, reverse=True) and 0 <= rates[-1] <= rates[0] <= 1


def test_a_variant_without_a_model_is_refused_by_name() -> None:
    house = Variant.from_preset("partnership-57", target=500)
    with pytest.raises(RookError, match=r"no bidding model for 'partnership-57\*'.*fit_bidding"):
        make_agent("modelbid", house)
    with pytest.raises(RookError, match="threshold"):
        make_agent("modelbid", "tournament", threshold=1.5)


def test_the_model_bidder_plays_in_simulations_like_any_agent() -> None:
    agents = ["modelbid", "heuristic", "modelbid", "heuristic"]
    r = simulate("tournament", agents, hands=40, seed=6, duplicate=True)
    assert r == simulate("tournament", agents, hands=40, seed=6, duplicate=True, workers=2)
    assert (r.hands["declarer"] >= -1).all() and r.agents[0] == "modelbid"
