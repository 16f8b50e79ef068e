"""rook_core as a backend for other apps: ``rook serve`` (HTTP JSON) and its parts
(the games it hosts: :mod:`rook_core.hosting`, shared with ``rook engine``).

* :mod:`.store`: SQLite with an append-only, checksum-chained action log per game;
* :mod:`.hub`: games in play, seat tokens, move numbers, bots;
* :mod:`.jobs`: background simulation jobs, bounded per client and on disk;
* :mod:`.searches`: the solver's queue (solves, reviews) and the time bound of reviews;
* :mod:`.limits`: every bound of the server (``rook serve`` takes each as a flag);
* :mod:`.app`: the FastAPI app, its OpenAPI document and the browser table;
* :mod:`.serving`: uvicorn with bounds on slow and numerous connections.

Needs the ``serve`` extra: ``pip install 'rook_core[serve]'`` (FastAPI, uvicorn;
``pip install -e '.[serve]'`` in a checkout).
"""
