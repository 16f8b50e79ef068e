"""The side-by-side solver builds of ``tools/solver_sides.py`` (behind
``bench/solver_vs.py``): the working tree's solver, built as a library of
its own, answers as the package does, on one thread and on two."""

from __future__ import annotations

import ctypes
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))

import solver_vs  # noqa: E402
from ceiling import MODES  # noqa: E402
from ceiling import compare as ceiling_compare  # noqa: E402
from order_study import parse, places_of  # noqa: E402
from root_order import KINDS, breakdown_report, grain_of, report, root_breakdown, root_runs  # noqa: E402
from solver_sides import Side, build, play_until, pos_of, solver_opt_level, spec_of  # noqa: E402
from solver_vs import anytime_bounds, compare, ratio_intervals, ratios  # noqa: E402
from team_study import read_tally, study, team_side  # noqa: E402
from team_study import report as team_report  # noqa: E402

from rook_core.solver import Solver  # noqa: E402


@pytest.fixture(scope="module")
def side_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build("worktree", tmp_path_factory.mktemp("sides"))


@pytest.fixture(scope="module")
def side(side_lib: Path) -> Side:
    return Side("worktree", side_lib)


@pytest.mark.parametrize("preset,cards", [("tournament", 36), ("tournament", 29), ("crowsnest", 33)])
def test_T14_a_side_answers_as_the_package_on_one_thread_and_two(side: Side, preset: str, cards: int) -> None:
    for seed in range(2):
        h = play_until(preset, 900 + seed, cards)
        spec, pos = spec_of(h.variant), pos_of(h)
        want = Solver().solve(h)
        cards_want = {int(c): v for c, v in want.move_values.items()}
        for threads in (1, 2):
            v, _, nodes = side.run("value", spec, pos, threads=threads)
            assert v == want.value and nodes > 0
            (v, values), _, _ = side.run("cards", spec, pos, threads=threads)
            assert v == want.value
            assert {c: x for c, x in enumerate(values) if x >= 0} == cards_want


def test_ratio_intervals_hold_the_ratios_and_repeat_from_their_seed() -> None:
    """solver_vs.py's 95% bootstrap intervals: a constant ratio gives a point,
    each interval holds its ratio, the same times give the same interval,
    and more deals give a narrower one."""
    new = [0.001 * (1 + i % 7) for i in range(40)]
    assert ratio_intervals([2 * x for x in new], new) == [(2.0, 2.0)] * 3
    rng = random.Random(5)

    def draw(n: int) -> tuple[list[float], list[float]]:
        nt = [rng.lognormvariate(0, 1) for _ in range(n)]
        return [x * rng.lognormvariate(1.8, .6) for x in nt], nt
    base, new = draw(60)
    ci = ratio_intervals(base, new)
    for (lo, hi), point in zip(ci, ratios(base, new)):
        assert 0 < lo <= point <= hi
    assert ratio_intervals(base, new) == ci
    assert ratio_intervals(base, new, seed=1) != ci
    few, many = ratio_intervals(*draw(20)), ratio_intervals(*draw(500))
    assert all(m[1] - m[0] < f[1] - f[0] for f, m in zip(few, many))
    for bad in (([], []), ([1.0], [1.0, 2.0]), ([1.0, 0.0], [1.0, 1.0])):
        with pytest.raises(ValueError):
            ratio_intervals(*bad)


def test_solver_vs_pools_the_deals_of_several_seeds_in_one_report(
        side_lib: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(solver_vs, "build", lambda commit, extra=None: side_lib)   # the suite's build, not another
    assert solver_vs.main(["--base", "none", "--seeds", "970,980", "--deals", "2", "--cards-left", "16"]) == 0
    out = capsys.readouterr().out
    assert "2 deals from seed 970, 980" in out and "== value: 4 deals" in out
    with pytest.raises(SystemExit, match="comma list of ints"):
        solver_vs.main(["--seeds", "970,x"])


def test_compare_keeps_each_deals_best_run_and_refuses_other_questions_on_threads(side: Side) -> None:
    deals = [play_until("tournament", 950 + i, 24) for i in range(3)]
    tallies = compare(side, None, deals, "value", quiet=True, threads=2, runs=2)
    assert len(tallies["new"].times) == 3 and all(t > 0 for t in tallies["new"].times)
    assert not tallies["base"].times
    with pytest.raises(ValueError, match="one thread"):
        side.run("at_least", spec_of(deals[0].variant), pos_of(deals[0]), 60, threads=2)


def test_T14_anytime_bounds_at_a_node_budget_hold_the_value_and_repeat_exactly(side: Side) -> None:
    """``solver_vs.py --what anytime``: the bounds read when a node budget
    ends an anytime search contain the exact value, and a second run gives
    the same bounds and nodes (what lets two probe schedules compare
    without the noise of a clock); without a budget they close on it."""
    deals = [play_until("tournament", 970 + i, 36) for i in range(4)]
    values = [Solver().value(h) for h in deals]
    spec, pos = spec_of(deals[0].variant), pos_of(deals[0])
    plain = side.run("value", spec, pos)
    try:
        side.set_budget(20_000)
        first = anytime_bounds(side, deals)
        assert anytime_bounds(side, deals) == first
        assert all(lo <= v <= hi for (lo, hi, _), v in zip(first, values))
        assert any(lo < hi for lo, hi, _ in first)   # the budget cut some search short
    finally:
        side.set_budget(0)
    assert [(lo, hi) for lo, hi, _ in anytime_bounds(side, deals)] == [(v, v) for v in values]
    # and the side is left as it was: a plain value searches the same nodes
    assert side.run("value", spec, pos)[::2] == plain[::2]


def test_a_side_is_built_at_the_optimisation_level_of_its_commits_package_build(tmp_path: Path) -> None:
    """The solver's files at the level CMakeLists.txt gives them: -O2 in the
    working tree, -O3 (the whole core's) before that line existed."""
    assert "${ROOK_SOLVER_SOURCES} PROPERTIES COMPILE_OPTIONS -O2" in (ROOT / "CMakeLists.txt").read_text()
    assert solver_opt_level("worktree") == "-O2"
    assert solver_opt_level("649b7bd") == "-O3"


def test_a_side_of_an_older_commit_loads_and_says_it_has_no_threads(tmp_path: Path) -> None:
    """The interface file serves every commit: one from before threads on
    one search (the bench's base, 649b7bd) still loads and answers on one
    thread, and refuses two by name instead of failing to load."""
    old = Side("649b7bd", build("649b7bd", tmp_path))
    h = play_until("tournament", 960, 24)
    spec, pos = spec_of(h.variant), pos_of(h)
    assert old.run("value", spec, pos)[0] == Solver().value(h)
    with pytest.raises(RuntimeError, match="no threads"):
        old.run("value", spec, pos, threads=2)


def test_T14_the_stats_build_searches_the_same_tree_and_tallies_later_discards(
        side: Side, tmp_path: Path) -> None:
    """``-D DD_STATS`` (``src/rook/solve/stats.h``) only counts: it searches
    the nodes the default build does, and prints its tally of the nodes
    under the second and later discards of a seat void in the led suit,
    some but not all of them, and of the table's stores by where they went:
    one a boundary searched (neither the sure bounds nor a table settled
    it) above the last trick's boundaries."""
    lib = build("worktree", tmp_path, extra=["-DDD_STATS"])
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'tools')!r}); import solver_sides as ss\n"
            f"s = ss.Side('stats', {str(lib)!r})\n"
            "for i in range(6):\n"
            "    h = ss.play_until('tournament', 980 + i, 36)\n"
            "    print(s.run('value', ss.spec_of(h.variant), ss.pos_of(h))[2])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    nodes = [int(x) for x in out.stdout.split()]
    want = [side.run("value", spec_of(h.variant), pos_of(h))[2]
            for h in (play_until("tournament", 980 + i, 36) for i in range(6))]
    assert nodes == want
    m = re.search(r"later discards: (\d+) nodes where no move cut, (\d+) where one did", out.stderr)
    assert m, out.stderr[-500:]
    assert 0 < int(m[1]) + int(m[2]) < sum(nodes)
    stores = {int(c): (int(a), int(b), int(e)) for c, a, b, e in
              re.findall(r"stores cards +(\d+): same (\d+) free (\d+) evicted (\d+)", out.stderr)}
    searched = {int(c): int(n) for c, n in re.findall(r"boundary cards +(\d+): .* searched (\d+)", out.stderr)}
    assert stores and {c: sum(t) for c, t in stores.items()} == searched
    assert all(t[1] > 0 for t in stores.values())


def test_T14_the_root_order_tool_tries_a_best_card_first_and_leaves_the_rules_order_alone(
        side: Side, tmp_path: Path) -> None:
    """``tools/root_order.py`` (a ``-D DD_FORCE_ROOT`` build): with nothing
    forced the build searches the nodes the default one does; forcing the
    rules' own first card changes nothing; every value agrees with every
    card's best (root_runs stops otherwise), and the report counts the deals
    whose rules' first card is a best card."""
    forced = Side("forced", build("worktree", tmp_path, extra=["-DDD_FORCE_ROOT"]))
    runs = root_runs(forced, "tournament", 2000, 8)
    for r in runs:
        h = play_until("tournament", r.seed, 36)
        assert r.rules[1] == side.run("value", spec_of(h.variant), pos_of(h))[2]
        if r.first_is_best:
            assert r.best_first[1] == r.rules[1]
    assert any(not r.first_is_best and r.best_first[1] != r.rules[1] for r in runs)
    assert f"best card in {sum(r.first_is_best for r in runs)}" in report(runs)[0]


def test_T14_the_root_breakdown_accounts_for_every_node_of_the_value_and_sorts_the_later_cards(
        side: Side, tmp_path: Path) -> None:
    """``tools/root_order.py --breakdown``: on the ``-D DD_FORCE_ROOT``
    build, each deal's value takes the default build's nodes; its root's
    moves, the sibling rule's skips left out, account for all of them but
    the root's own node; the first move is the rules' first card, and each
    later one is sorted by every card's value against the best before it."""
    forced = Side("forced", build("worktree", tmp_path, extra=["-DDD_FORCE_ROOT"]))
    deals = root_breakdown(forced, "tournament", 2000, 8)
    first = ctypes.c_int.in_dll(forced.lib, "dd_root_first_card")
    kinds = set()
    for i, (total, moves) in enumerate(deals):
        h = play_until("tournament", 2000 + i, 36)
        spec, pos = spec_of(h.variant), pos_of(h)
        assert total == side.run("value", spec, pos)[2]
        assert sum(n for _, n in moves) == total - 1
        assert [k for k, _ in moves[:1]] == ["first"] and all(k in KINDS[1:] for k, _ in moves[1:])
        kinds |= {k for k, _ in moves}
        (value, values), _, _ = side.run("cards", spec, pos)
        forced.run("value", spec, pos)
        assert first.value in {c for c in range(64) if values[c] >= 0}
    assert {"first", "tied", "worse"} <= kinds
    lines = breakdown_report(deals)
    assert f": {sum(t for t, _ in deals)} nodes, crc " in lines[0]
    assert sum(int(x.split()[-6].replace(",", "")) for x in lines[1:]) == sum(t - 1 for t, _ in deals)
    assert grain_of(play_until("tournament", 2000, 36).variant) == 5


def test_T14_the_team_study_build_answers_as_one_thread_and_its_tallies_hold_together(
        side: Side, tmp_path: Path) -> None:
    """``tools/team_study.py`` (a ``-D DD_TEAM_STATS`` build): on one thread
    it searches the default build's nodes and tallies nothing; on two it
    answers as one thread (study stops otherwise), and its tallies hold
    together: the helper searched at split points for part of its loop
    time, the owners searched below for part of their waits, no more split
    points were cut than opened, and the nodes after a cut are a part of
    two threads' nodes.  On full deals the value's helper joins split
    points; every card's joins only once one thread has run out of cards."""
    team = team_side(tmp_path)
    for i in range(3):
        h = play_until("tournament", 2200 + i, 36)
        spec, pos = spec_of(h.variant), pos_of(h)
        before = read_tally(team)
        assert team.run("value", spec, pos)[2] == side.run("value", spec, pos)[2]
        assert team.run("cards", spec, pos)[2] == side.run("cards", spec, pos)[2]
        assert read_tally(team) == before
    for what in ("value", "cards"):
        r = study(team, what, "tournament", 2200, 4)
        t = r.tally
        assert r.deals == 4 and r.nodes_one > 0 and r.nodes_two > 0
        assert 0 < t["help_join_ns"] <= t["help_ns"]
        assert t["wait_join_ns"] <= t["wait_ns"]
        assert 0 < t["joins"] and 0 < t["join_nodes"] <= r.nodes_two
        assert t["cuts"] <= t["splits"] and t["after_cut"] < r.nodes_two
        lines = team_report(r)
        assert lines[0].startswith(f"{what}, 4 deals: one thread {r.nodes_one:,} nodes")
        assert f"{t['splits']:,} opened, {t['cuts']:,} cut" in lines[3]


def test_T14_the_order_study_dumps_every_moves_outcome_without_changing_the_search(
        side: Side, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tools/order_study.py`` (a ``-D DD_ORACLE -D DD_ORDER_DUMP`` build):
    the dump build searches the nodes the default one does and gives the
    same values; every dumped node has the cards asked for and each move's
    cut flag agrees with its value and the node's window; the oracles spend
    no more than the search's own order, and an order by the search's own
    rank spends what it does."""
    out = tmp_path / "dump.txt"
    monkeypatch.setenv("DD_DUMP", str(out))
    dumping = Side("dump", build("worktree", tmp_path, extra=["-DDD_ORACLE=16", "-DDD_ORDER_DUMP"]))
    for i in range(3):
        h = play_until("tournament", 960 + i, 28)
        spec, pos = spec_of(h.variant), pos_of(h)
        assert dumping.run("value", spec, pos)[::2] == side.run("value", spec, pos)[::2]
    ctypes.CDLL(None).fflush(None)  # the dump's stream, opened by the library
    nodes = list(parse(out))
    assert nodes and {n["place"] for _, n in nodes} == {0, 1, 2, 3}
    for _, n in nodes:
        assert 16 <= n["cards"] <= 28 and len({m[0] for m in n["moves"]}) == len(n["moves"]) >= 2
        for _, cut, v, spent in n["moves"]:
            assert cut == (v >= n["beta"] if n["maximize"] else v <= n["alpha"]) and spent >= 0
    for place in places_of(out).values():
        own, first, cheapest = place.headroom()
        assert own >= first >= cheapest > 0
        assert place.spend_with(np.array([float(k == "rank") for k in place.names])) == own


def test_T14_the_ceiling_builds_loosen_the_table_and_the_tool_counts_their_wrong_values(
        side: Side, tmp_path: Path) -> None:
    """``tools/ceiling.py`` (``-D DD_CEILING``, ``src/rook/solve/table.h``):
    the plain build against itself gives the same nodes and no wrong value;
    each loosened build lets its entries stand for more positions, so it
    settles the same full deals in fewer nodes (its values may be wrong:
    the tool counts the deals where they are, and says so).  Both sides
    have large tables, as the tool's (128 MiB here): on a small one the
    entries that stand for other points below the kept line share a bucket
    among all of a position's variants, and the lengths mode, whose coarse
    hash is looser still, crowds its buckets so much that it measures the
    crowding more than the entries."""
    big = 128 << 20
    plain = Side("plain", side.path, big)
    same = ceiling_compare(plain, plain, "plain", "tournament", 970, 4, 24)
    assert same.plain_nodes == same.loose_nodes and same.plain_values == same.loose_values
    assert not same.wrong and "wrong values on 0 of 4 deals" in same.line()
    for mode, value in MODES.items():
        loose = Side(mode, build("worktree", tmp_path / mode, extra=[f"-DDD_CEILING={value}"]), big)
        c = ceiling_compare(plain, loose, mode, "tournament", 1000, 12, 36)
        assert c.plain_nodes == [plain.run("value", spec_of(h.variant), pos_of(h))[2]
                                 for h in (play_until("tournament", 1000 + i, 36) for i in range(12))]
        assert sum(c.loose_nodes) < sum(c.plain_nodes), mode
        wrong = [b - a for a, b in zip(c.plain_values, c.loose_values) if a != b]
        assert c.wrong == wrong and f"wrong values on {len(wrong)} of 12 deals" in c.line()


def every_cards_value_alike(side: Side, other: Side, preset: str, sizes: tuple[int, ...], seed: int,
                            deals: int) -> tuple[int, int]:
    """Assert that ``other`` gives every card's value as ``side`` does on
    ``deals`` deals of each size; return the two builds' nodes in all."""
    spent = [0, 0]
    for cards in sizes:
        for i in range(deals):
            h = play_until(preset, seed + i, cards)
            spec, pos = spec_of(h.variant), pos_of(h)
            want, _, n0 = side.run("cards", spec, pos)
            got, _, n1 = other.run("cards", spec, pos)
            assert got == want, (preset, cards, seed + i)
            spent[0] += n0
            spent[1] += n1
    return spent[0], spent[1]


@pytest.fixture(scope="module")
def built_with(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Side]:
    """The working tree's solver built with one definition, once per module."""
    sides: dict[str, Side] = {}

    def side_with(define: str) -> Side:
        if define not in sides:
            folder = tmp_path_factory.mktemp(define.lower())
            sides[define] = Side(define, build("worktree", folder, extra=[f"-D{define}"]))
        return sides[define]
    return side_with


@pytest.mark.parametrize("preset", ["tournament", "crowsnest", "partnership-57", "house-180", "red-one"])
def test_T14_the_general_search_gives_every_cards_value_of_the_last_three_tricks_as_the_endgame_does(
        side: Side, built_with: Callable[[str], Side], preset: str) -> None:
    """``-D DD_NO_LAST_THREE`` (``search.c``): the search goes on at twelve
    cards where the default build hands the last three tricks to
    ``endgame.c``.  The two are written apart, so their agreement on every
    card's value, from 14 to 20 cards in every kind of preset, checks each
    against the other; the general search counts the nodes of the last
    three tricks, which the endgame does not."""
    for cards in (14, 16, 17, 20):
        plain, other = every_cards_value_alike(side, built_with("DD_NO_LAST_THREE"), preset, (cards,), 700, 8)
        assert other > plain, cards


@pytest.mark.parametrize("preset", ["tournament", "crowsnest-100", "red-one", "buckeye", "kentucky-rook"])
def test_T14_entries_that_stand_for_other_points_below_the_kept_line_keep_every_value_exact(
        side: Side, built_with: Callable[[str], Side], preset: str) -> None:
    """``src/rook/solve/table.h``: a table entry stands for positions whose
    cards below its kept line carry other points, its bounds widened by the
    points that move.  Every card's value stays what a build without such
    entries (``-D DD_NO_PTS_GENERAL``) gives, in every kind of preset
    (marked cards, such as the bird, keep their own tags), and the looser
    entries settle the same positions in fewer nodes."""
    general, plain = every_cards_value_alike(side, built_with("DD_NO_PTS_GENERAL"), preset, (20, 28), 600, 6)
    assert general < plain


@pytest.mark.parametrize("preset", ["partnership-57", "house-180", "dixie"])
def test_T14_deals_of_more_than_forty_cards_keep_the_table_entries_that_name_their_points(
        side: Side, built_with: Callable[[str], Side], preset: str) -> None:
    """``DD_PGEN_MOST_DEALT`` (``src/rook/solve/table.h``): a deal of more
    than 40 cards searches as a build without entries that stand for other
    points does, node for node (its long searches fill the table, where
    buckets of one line hold twice the entries)."""
    general, plain = every_cards_value_alike(side, built_with("DD_NO_PTS_GENERAL"), preset, (20, 28), 600, 4)
    assert general == plain


def test_T14_a_table_of_128_mib_or_more_keeps_the_table_entries_that_name_their_points(
        side: Side, side_lib: Path, built_with: Callable[[str], Side]) -> None:
    """``DD_PGEN_TABLE_BELOW_MIB`` (``src/rook/solve/table.h``): a caller's
    big table (128 MiB or more, asked for long searches such as the nest
    decision's) holds entries that name their points, as many again, and
    searches a `tournament` deal node for node as a build without the
    looser entries; the default table does not."""
    big = 128 << 20
    plain = built_with("DD_NO_PTS_GENERAL")
    general_big, plain_big = every_cards_value_alike(Side("big", side_lib, big), Side("plain", plain.path, big),
                                                     "tournament", (24,), 800, 3)
    assert general_big == plain_big
    small, small_plain = every_cards_value_alike(side, plain, "tournament", (24,), 800, 3)
    assert small < small_plain


def test_T14_table_reads_that_mix_two_writes_never_give_a_wrong_value(side: Side,
                                                                     built_with: Callable[[str], Side]) -> None:
    """``-D DD_TORN_READS=2`` (``table.h``): every second store leaves its
    bucket as a thread reading it in the middle of another thread's store
    may see it (a new entry beside another entry's count word, or a moved
    slot with its old counts).  Each such read must fail its check: every
    card's value on full deals of five presets stays the plain build's.
    (With the counts checked against the entry's lock and data alone, 10 of
    these 60 deals came out wrong.)"""
    torn = built_with("DD_TORN_READS=2")
    wrong = []
    for preset in ("tournament", "red-one", "crowsnest", "crowsnest-100", "kentucky-discard-original"):
        for seed in range(3000, 3012):
            h = play_until(preset, seed, 36)
            spec, pos = spec_of(h.variant), pos_of(h)
            want, _, _ = side.run("cards", spec, pos)
            got, _, _ = torn.run("cards", spec, pos)
            if got != want:
                wrong.append((preset, seed))
    assert wrong == []
