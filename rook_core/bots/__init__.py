"""The players: agents that choose an action for one seat (T-15: from what the seat may know).

* :mod:`.agents`: the registry of kinds (``make_agent``) and the random agent;
* :mod:`.heuristic`: a rule-of-thumb player for every phase;
* :mod:`.knowledge`: what a seat knows (voids, cards seen) from its observation;
* :mod:`.worlds`: deals of the hidden cards consistent with that knowledge;
* :mod:`.pimc`: the Monte Carlo player over such worlds, solved double dummy;
* :mod:`.policy`: native policies (C function pointers, Numba) for the native loop;
* :mod:`.features`: numeric features of hands for learning.
"""
