"""rook_core as a backend for other apps: ``rook serve`` (HTTP JSON) and its parts
(the games it hosts: :mod:`rook_core.hosting`, shared with ``rook engine``).

* :mod:`.store`: SQLite with an append-only, checksum-chained action log per game;
* :mod:`.hub`: games in play, seat tokens, move numbers, bots;
* :mod:`.jobs`: background simulation jobs;
* :mod:`.app`: the FastAPI app, its OpenAPI document and the browser table.

Needs the ``serve`` extra: ``pip install -e '.[serve]'`` (FastAPI, uvicorn).
"""
