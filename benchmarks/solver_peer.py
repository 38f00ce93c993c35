"""Peer side of the solver benchmark, run with the OpenSpiel peer's interpreter:
minimum deadwood of the same random ten-card hands through OpenSpiel's C++
GinRummyUtils, called from Python. Prints hands per second.
Usage: peer-venv/bin/python benchmarks/solver_peer.py N SEED"""
import sys
import time

import pyspiel
from hands import random_hands

n, seed = int(sys.argv[1]), int(sys.argv[2])
U = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
hands = [U.card_strings_to_card_ints(h) for h in random_hands(n, seed)]
t = time.perf_counter()
for h in hands:
    U.min_deadwood(h)
print(n / (time.perf_counter() - t))
