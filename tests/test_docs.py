"""The documentation stands in the repository: every rule id the code and
the tests cite is defined in docs/RULES.md, and nothing points outside the
tree."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"
SOURCES = [p for d in ("rook_core", "src", "tests", "tools", "bench", "docs") for p in (ROOT / d).rglob("*")
           if p.suffix in {".py", ".pyx", ".pyi", ".c", ".h", ".md", ".js", ".html"}]
RULE_ID = re.compile(r"\b(C|T|TV|H)-(\d+)\b")


def _defined() -> set[str]:
    """The ids docs/RULES.md defines: the bold ids that open a rule."""
    return {f"{a}-{b}" for a, b in re.findall(r"\*\*(C|T|TV|H)-(\d+)\*\*", RULES.read_text())}


def test_every_cited_rule_id_is_defined_in_docs() -> None:
    defined = _defined()
    assert len(defined) == 47   # C-1..4, T-1..15, T-20..22, T-30..35, TV-1..12, H-1..7
    missing = {}
    for path in SOURCES + [ROOT / "README.md"]:
        for a, b in RULE_ID.findall(path.read_text(errors="replace")):
            if f"{a}-{b}" not in defined:
                missing.setdefault(f"{a}-{b}", str(path.relative_to(ROOT)))
    assert not missing, f"rule ids cited but not defined in docs/RULES.md: {missing}"


def test_nothing_points_outside_the_tree() -> None:
    here = Path(__file__).resolve()
    outside = [str(p.relative_to(ROOT)) for p in SOURCES + [ROOT / "README.md", ROOT / "pyproject.toml"]
               if p != here and "../" + "shared" in p.read_text(errors="replace")]
    outside += [p for p in ("mkdocs.yml",) if "../" in (ROOT / p).read_text()]
    assert not outside


def test_readme_links_lead_to_files_of_the_tree() -> None:
    text = (ROOT / "README.md").read_text()
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if "://" not in target:
            assert (ROOT / target).exists(), target
