"""The in-process twin of benchmarks/first_bot.py: the first legal move."""

from gincli import Bot, hookimpl


class First(Bot):
    name = "first"
    description = "Plays the first legal move (the overhead benchmark's in-process twin)."

    def choose(self, view):
        return view.legal()[0]


@hookimpl
def gincli_register_bots(register):
    register(First)
