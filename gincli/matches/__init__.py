"""Matches between bots: external bots, programs speaking the JSON-lines
protocol (:mod:`.external`), the runner that plays a match's sessions,
reproducible by seed, and keeps its tally (:mod:`.runner`), where the sessions
run (:mod:`.backends`: the interface a backend plugin implements; the
built-in ``local`` runs the base's worker pool, :mod:`gincli.base.pool`),
and the statistics (:mod:`.stats`).

It may import every layer below the plugin layer. The plugins it needs on a
worker that cannot inherit them are loaded by a loader handed down to it
(:class:`~.backends.MatchWork`), never looked up from here.
"""
