# file: half_oklahoma.py
import math

from gincli import Option, Variant, hookimpl


class HalfOklahoma(Variant):
    extra_options = (Option("double_gin", False, "double the hand when it ends by gin", "bool"),)

    def needs_upcard(self, rules):
        return True

    def knock_limit(self, rules, upcard):
        return math.ceil(min(upcard % 13 + 1, 10) / 2)


@hookimpl
def gincli_register_variants(register):
    register(HalfOklahoma("half-oklahoma", "The first upcard's value, halved, is the knock limit.",
                          {"gin_bonus": 20}))
