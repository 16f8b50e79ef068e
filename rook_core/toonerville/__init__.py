"""Toonerville Rook (RULES.md section 3, source 004): contract rummy with several decks.

A different game from the trick-taking ones: hands are multisets (TV-1), so
this package has its own modules.  It shares the card notation
(:mod:`rook_core.cards`: ``B1`` .. ``Y14``, ``Rook`` for the bird).

* :mod:`.hand`: multiset hands as count vectors, and the TV-12 card points;
* :mod:`.melds`: sets and runs (TV-4) with the bird wild (TV-5);
* :mod:`.contracts`: the eleven rounds' deals and contracts (TV-2).
"""
