"""The manual keeps up with the code: every route and error code of the HTTP
service is in docs/hosting.md, and every request of ``rook engine`` is in
docs/engine.md, so a route or request added without its page fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rook_core import engine
from rook_core.service import app as service_app

ROOT = Path(__file__).resolve().parent.parent
HOSTING = (ROOT / "docs" / "hosting.md").read_text()
ENGINE = (ROOT / "docs" / "engine.md").read_text()


PAGES_ONLY = {"GET /", "GET /docs", "GET /openapi.json"}   # the table, the API reader, the API document


def _table_firsts(text: str) -> set[str]:
    """The first cells of a page's Markdown table rows, backticks removed."""
    return {m.group(1).strip().strip("`") for m in re.finditer(r"^\|([^|]+)\|", text, re.M)}


def _status_codes_of(source: str) -> set[int]:
    """The refusals (``status_code=N``, N >= 400) a module answers with directly."""
    return {int(n) for n in re.findall(r"status_code=(\d{3})", source) if int(n) >= 400}


def test_every_route_of_the_service_is_in_the_route_table_of_the_hosting_page() -> None:
    rows = _table_firsts(HOSTING)
    routes = {f"{method} {path}" for method, path in service_app.ROUTE_DOCS}
    assert routes, "ROUTE_DOCS is empty"
    assert routes | PAGES_ONLY <= rows, sorted(routes - rows)


def test_the_hosting_page_lists_no_route_the_service_does_not_have() -> None:
    listed = {r for r in _table_firsts(HOSTING) if re.match(r"(GET|POST|PUT|DELETE) /", r)}
    routes = {f"{method} {path}" for method, path in service_app.ROUTE_DOCS} | PAGES_ONLY
    assert listed <= routes, sorted(listed - routes)


def test_every_error_code_of_the_service_is_in_the_error_table_of_the_hosting_page() -> None:
    source = Path(service_app.__file__).read_text()
    codes = set(service_app._ERRORS) | _status_codes_of(source) | {503}   # 503: past --connections
    documented = {int(c) for c in _table_firsts(HOSTING) if c.isdigit()}
    assert codes <= documented, sorted(codes - documented)


def _engine_commands() -> set[str]:
    """The ``cmd`` values ``rook engine`` answers, read from its source."""
    tree = ast.parse(Path(engine.__file__).read_text())
    cmds: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "cmd":
            for comp in node.comparators:
                values = comp.elts if isinstance(comp, ast.Tuple) else [comp]
                cmds |= {v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    return cmds | {"quit"}


def test_every_request_of_rook_engine_is_in_the_request_table_of_the_engine_page() -> None:
    cmds = _engine_commands()
    assert {"hello", "new", "act", "solve", "review", "quit"} <= cmds
    documented = {m.group(1) for m in re.finditer(r'^\| `\{"cmd": "(\w+)"', ENGINE, re.M)}
    assert cmds == documented, (sorted(cmds - documented), sorted(documented - cmds))


def test_the_engine_names_each_request_it_has_when_refusing_an_unknown_one() -> None:
    out = engine._Engine()
    try:
        out.answer({"cmd": "no-such-request"})
    except Exception as e:          # the engine's own refusal names the requests it knows
        named = set(re.findall(r"\w+", str(e).split(":", 1)[1]))
    else:
        raise AssertionError("an unknown request was answered")
    assert named == _engine_commands()


def test_the_agents_flag_of_play_and_simulate_names_every_agent_kind() -> None:
    """``--agents`` help lists every kind ``make_agent`` takes, so none is hidden from the shell."""
    from rook_core.bots.agents import agent_kinds
    from rook_core.cli import subcommands
    parsers = {name: p for name, _, p in subcommands()}
    for name in ("play", "simulate"):
        agents = next(a for a in parsers[name]._actions if a.dest == "agents")
        named = set(re.findall(r"\w+", agents.help.split(";", 1)[0]))
        assert set(agent_kinds()) <= named, (name, sorted(set(agent_kinds()) - named))
