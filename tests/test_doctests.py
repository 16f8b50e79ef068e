"""Run the doctests of every public rook_core module (the installed package)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "rook_core", "rook_core.cards", "rook_core.variant", "rook_core.actions",
    "rook_core.position", "rook_core.game", "rook_core.hand", "rook_core.solver",
    "rook_core.bots.knowledge", "rook_core.sim.simulate", "rook_core.sim.playout", "rook_core._reference.playout",
    "rook_core.bots.features", "rook_core.rng", "rook_core.toonerville.hand", "rook_core.toonerville.melds",
    "rook_core.toonerville.contracts", "rook_core._reference.contract", "rook_core.toonerville.solver",
    "rook_core.toonerville.rules", "rook_core.toonerville.actions", "rook_core.toonerville.table",
    "rook_core.toonerville.game", "rook_core.toonerville.agents", "rook_core.toonerville.playlog",
    "rook_core.sim.toonerville", "rook_core.hosting", "rook_core.service.store",
    "rook_core.service.hub", "rook_core.service.jobs", "rook_core.service.searches", "rook_core.service.limits",
    "rook_core.engine", "rook_core.analysis",
    "rook_core.rl.encoding", "rook_core.rl.aec", "rook_core.rl.gym", "rook_core.rl.openspiel", "rook_core.rl.vector",
    "rook_core.intervals", "rook_core.sim.stats", "rook_core.odds",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no doctest"
    assert result.failed == 0
