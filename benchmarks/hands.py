"""The same random ten-card hands for gincli and the peer (standard library only)."""
import random

NAMES = [r + s for s in "shdc" for r in "A23456789TJQK"]


def random_hands(n: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [rng.sample(NAMES, 10) for _ in range(n)]
