"""ROOK_ASSERT (src/rook/check.h): the stated preconditions of the C core are
checked where checks are on, and cost nothing where they are off.

Each case compiles a tiny C program against the headers of ``src/rook`` and
runs it: with ``-DROOK_CHECKS`` a broken precondition aborts naming the
condition; without it the same program builds into a call with no check.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CC = shutil.which("cc") or shutil.which("gcc")

CASES = {
    "rook_lsb": ('#include "rook/bits.h"', "return rook_lsb(zero) == 99;", "m != 0"),
    "rook_msb": ('#include "rook/bits.h"', "return rook_msb(zero) == 99;", "m != 0"),
    "rook_select_bit": ('#include "rook/bits.h"', "return rook_select_bit(zero | 1, 1) == 99;",
                        "k < rook_popcount(m)"),
    "rook_rng_below": ('#include "rook/rng.h"', "rook_rng g; rook_rng_seed(&g, 1); "
                       "return (int)rook_rng_below(&g, (uint32_t)zero);", "n > 0"),
    "rook_trick_winner": ('#include "rook/rules.h"', "rook_rules r = {0}; uint8_t c[4] = {0}; "
                          "return rook_trick_winner(&r, c, (int)zero, 0);", "n >= 1"),
}


def _build(tmp: Path, name: str, checks: bool) -> Path:
    include, body, _ = CASES[name]
    src = tmp / f"{name}.c"
    src.write_text(f"#include <stdint.h>\n{include}\nvolatile uint64_t zero = 0;\n"
                   f"int main(void) {{ {body} }}\n")
    exe = tmp / f"{name}{'_checked' if checks else ''}"
    flags = ["-DROOK_CHECKS=1"] if checks else []
    subprocess.run([CC, "-std=c11", "-O1", f"-I{ROOT / 'src'}", *flags, str(src), "-o", str(exe)],
                   check=True, capture_output=True)
    return exe


@pytest.mark.skipif(CC is None, reason="no C compiler on this machine")
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_broken_precondition_aborts_naming_it_where_checks_are_on(tmp_path: Path, name: str) -> None:
    res = subprocess.run([str(_build(tmp_path, name, True))], capture_output=True, text=True)
    assert res.returncode != 0
    assert "precondition failed" in res.stderr and CASES[name][2] in res.stderr


@pytest.mark.skipif(CC is None, reason="no C compiler on this machine")
def test_checks_compile_to_nothing_where_they_are_off(tmp_path: Path) -> None:
    exe = _build(tmp_path, "rook_lsb", False)
    assert b"precondition failed" not in exe.read_bytes()
