"""Matches between bots: external bots, programs speaking the JSON-lines
protocol (:mod:`.external`), the runner that plays a match's sessions,
reproducible by seed, and keeps its tally (:mod:`.runner`), where the sessions
run (:mod:`.backends`: the interface a backend plugin implements), ordered
parallel work over worker processes that never hangs (:mod:`.parallel`, also
used by ``gin score`` and ``gin validate``), processes that die with their
parent (:mod:`.processes`), and the statistics (:mod:`.stats`).

It may import every layer below the plugin layer. The plugins it needs on a
worker that cannot inherit them are loaded by a loader handed down to it
(:class:`~.backends.MatchWork`), never looked up from here.
"""
