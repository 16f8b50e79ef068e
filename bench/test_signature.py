"""Group 6: the deterministic engine signature (``bench/signature.py``).

The benchmark runs the whole signature once (its time is informative only)
and asserts that

* the native perft of every signature position equals the reference's
  (``rook_core._reference.tricks.perft``);
* every ``random_hands`` row adds up to the variant's total points;
* the text equals ``bench/signature.txt``.  A change of engine behaviour
  makes this fail on purpose: regenerate the file with
  ``.venv/bin/python bench/signature.py --write`` and let the diff of
  ``bench/signature.txt`` show the change in review.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

from rook_core.variant import PRESETS

_PATH = Path(__file__).resolve().with_name("signature.py")
_spec = importlib.util.spec_from_file_location("rookbench_signature", _PATH)
assert _spec is not None and _spec.loader is not None
signature = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(signature)


@pytest.mark.benchmark(group="6-signature")
def test_signature(benchmark, ledger):
    text = benchmark.pedantic(signature.compute, kwargs={"reference": True},
                              rounds=1, iterations=1)
    ledger.record("signature", benchmark)
    print(text)
    for name, v in PRESETS.items():
        t0, t1, _ = signature.random_hands_figures(name)
        assert t0 + t1 == signature.N_HANDS * v.total_points, name
    want = signature.GOLDEN.read_text()
    diff = "".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                        "bench/signature.txt", "now"))
    assert text == want, (
        "the engine signature changed; if intended, run "
        "`.venv/bin/python bench/signature.py --write` and commit bench/signature.txt:\n" + diff)
