"""Many hands at once: the batch simulator and what it reports.

* :mod:`.simulate`: seeded hands and games between agents, as columns;
* :mod:`.report`: a run's summary as text, a report page with charts;
* :mod:`.playout`: random playouts in bulk, natively;
* :mod:`.stats`: the intervals of the summaries;
* :mod:`.tables`: results as named tables of columns, and their files;
* :mod:`.chunks`: a run's units in chunks, in order, on an executor or inline;
* :mod:`.studies`: reviews (``rook analyse``) and bid odds (``rook odds``) of
  many hands, on the same executors.
"""
