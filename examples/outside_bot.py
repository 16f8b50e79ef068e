"""An outside bot for ``rook simulate --engine`` (docs/FORMATS.md, "An outside bot").

It reads one JSON request per line on standard input -- the variant, the
seat, the seed of this hand or game, and the seat's observation -- and
answers one line ``{"action": ..., "id": ...}`` (the request's id echoed).  This one plays a uniformly random
legal action, drawn from a generator seeded by the request's seed and the
number of decisions made with it, so the same seeds give the same play.
It needs nothing but Python's standard library:

    rook simulate --preset tournament --hands 200 \\
        --engine mine='python examples/outside_bot.py' --agents mine,heuristic,mine,heuristic
"""

import json
import random
import sys

decisions: dict[tuple[int, int], int] = {}
for line in sys.stdin:
    request = json.loads(line)
    key = (request["seed"], request["seat"])
    n = decisions[key] = decisions.get(key, 0) + 1
    rng = random.Random(request["seed"] * 1000 + n)
    legal = request["observation"]["legal_actions"]
    print(json.dumps({"action": rng.choice(legal), "id": request["id"]}), flush=True)
