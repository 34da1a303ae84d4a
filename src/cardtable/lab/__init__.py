"""The lab: many games played on fixed seeds with the seats rotated, and what they say about agents and games.

Playing, one pipeline for every kind of run:

- :mod:`cardtable.lab.study`: what a run plays (:class:`~cardtable.lab.study.StudyConfig`), its
  planned games, and playing a batch of them (:func:`~cardtable.lab.study.play_batch`);
- :mod:`cardtable.lab.pipeline`: batches played here, in worker processes or on Ray, yielded as
  they finish; :mod:`cardtable.lab.playout` is the compiled loop of a game of random agents;
- :mod:`cardtable.lab.facts`: what each seat drew, played and lost, read from a game's events by
  the game's own reader in :mod:`cardtable.lab.gamefacts` (its kit's ``facts``).

Measuring agents: :mod:`cardtable.lab.arena` (two agents, seat-rotated games, scores and Elo with
intervals; ``cardtable arena``), :mod:`cardtable.lab.ladder` (ratings of agents of rising strength)
and :mod:`cardtable.lab.stats` (the intervals).

Measuring games (``cardtable lab``): :mod:`cardtable.lab.execute` plays and stores a run in
:mod:`cardtable.lab.storage`; :mod:`cardtable.lab.analysis` turns it into numbers (a game's own
tables in :mod:`cardtable.lab.gamereports`, its kit's ``report_tables``),
:mod:`cardtable.lab.designer` into the answer a designer reads first and the per-item strengths
the run can tell, and :mod:`cardtable.lab.report` into one HTML page with the charts of
:mod:`cardtable.lab.svg` (and :mod:`cardtable.lab.plots`), JSON and CSV, in the languages of
:mod:`cardtable.lab.i18n`; :mod:`cardtable.lab.setup_args` reads setup options as a designer
writes them (lists, ``@FILE``);
:mod:`cardtable.lab.compare` A/B-tests a rule variant on paired seeds and :mod:`cardtable.lab.decks`
plays Zeta decks round robin.

Speed (``cardtable bench``): :mod:`cardtable.lab.bench` (random playouts), :mod:`cardtable.lab.agent_bench`
(ISMCTS) and :mod:`cardtable.lab.lab_bench` (what recording and storing cost, and scaling with workers).
See docs/lab.md.
"""
