"""Every rule id a validation report may carry (FORMATS.md "Validation report":
``rule``, a stable, documented identifier), with what it means: gincli's own,
which docs/validate.md lists. A move set's rule ids are its own
(``MoveSet.rule_ids``) and may not take one of these."""

#: gincli's rule ids, with what each means (docs/validate.md lists them, in these words).
RULES: dict[str, str] = {
    "transcript-format": "the transcript is not a gincli-transcript/1 document (its format, players or hands field)",
    "transcript-options": "the transcript's variant, scoring system or options are unknown or wrong",
    "plugin-missing": "the transcript needs plugins (its \"plugins\" field names them) that do not provide here "
                      "what it needs: the variant, scoring system, move set, meld rules or option; the message "
                      "names every one",
    "unknown-player": "a name that is not one of the players (of the session, or of the hand)",
    "wrong-dealer": "a hand dealt by the wrong player (two players: next_dealer, and the same dealer after a dead "
                    "hand; more: the scoring system's rule)",
    "missing-deal": "a hand with neither deck nor deal",
    "deck-cards": "a deck that is not 52 distinct cards",
    "deal-cards": "a deal with the wrong number of cards, or duplicate cards",
    "unknown-card": "a card that is not a card",
    "deal-deck-mismatch": "a hand whose deck and deal disagree",
    "malformed-move": "a move that cannot be read (no player, unknown action, a draw without from)",
    "move-after-end": "a move after the hand was over",
    "out-of-turn": "a move by the player whose turn it is not",
    "first-turn-order": "the first upcard taken or refused out of order, or a draw from the stock before both "
                        "refused it",
    "pass-not-allowed": "a pass anywhere but on the first upcard",
    "draw-first": "a discard or knock before drawing",
    "already-drew": "a second draw, or a pass, after drawing",
    "draw-not-on-top": "a draw of a card that is not on top of the stock or discard pile",
    "draw-card-missing": "a draw from an unknown stock that does not name its card",
    "draw-empty-discard": "a draw from an empty discard pile",
    "draw-from-wall": "a draw from the last two cards of the stock",
    "discard-not-held": "a discard of a card not in the hand",
    "discard-drawn-upcard": "discarding the card just taken from the discard pile",
    "knock-over-limit": "a knock with deadwood above the knock limit (or any deadwood where only gin may end the hand)",
    "big-gin-off": "big gin while the option big_gin_bonus is off",
    "big-gin-not-melded": "a knock with eleven cards that do not all meld",
    "not-a-meld": "a spread meld that is not a set or a run",
    "meld-not-held": "a spread meld with cards the player does not hold",
    "meld-card-reused": "a card spread in two melds",
    "spread-expected": "after a knock, anything but the defender's spread",
    "layoff-not-fitting": "a layoff that does not fit the knocker's melds",
    "layoff-onto-gin": "a layoff onto gin or big gin",
    "layoff-not-held": "a layoff of a card the defender does not hold",
    "layoff-in-meld": "a card both laid off and in one of the defender's own melds",
    "layoff-repeated": "the same layoff listed twice",
    "hand-size": "a player with the wrong number of cards at the end of a hand (hand records)",
    "missing-upcard": "a hand record without the upcard its variant needs (hand records)",
    "layoff-without-knock": "layoffs in a hand nobody knocked (hand records)",
    "hand-unfinished": "a hand that stops before its end, followed by another hand",
    "hand-after-session-end": "a hand played after the session was settled",
    "claimed-hand-result": "a hand's claimed result (outcome, winner, points) that the moves do not produce",
    "claimed-session-result": "the session's claimed result (scores, winner, games, totals) that the moves do not "
                              "produce",
    "cut-cards": "a cut for the deal that is missing (three or four players), lacks a player who cuts, or holds a "
                 "card that is not a card or is cut twice",
    "cut-seats": "a first hand whose players or dealer are not those the cut gives",
    "hand-players": "a hand that does not name its two players (required with more than two), or names others",
    "wrong-players": "a hand played by another pair than the scoring system seats (who sits out, the captain, the "
                     "partnership pairing)",
    "deal-order": "a partnership deal whose two tables are out of order (the first player's table comes first)",
    "stalled-early": "a hand marked stalled (gincli stops a hand at 2,000 moves, dead) that stops before that",
    "plugin-fault": "a plugin (a variant, a scoring system, a move set) broke its contract while the transcript was "
                    "replayed; the message names it",
    "internal-error": "gincli failed where it did not foresee a failure: a bug in gincli (please report it); the "
                      "hands finished before it are kept",
    # Irregularities at the table, and their remedies (RULES.md; FORMATS.md "Irregularities")
    "irregular-hand-count": "an irregular-hand move whose number of cards is not what the player holds, or is the "
                            "right number, or a count recorded twice",
    "remedy-missing": "a move other than the remedy after an irregularity that needs one (a wrong number of cards "
                      "found during play, an illegal knock found)",
    "remedy-not-allowed": "a remedy the rules do not allow there (continue when a redeal is forced, accept after "
                          "the opponent spread or for a spread that is not valid, ...), or with nothing to remedy",
    "remedy-wrong-player": "a remedy chosen by the player whose choice it is not (the player with the right hand, "
                           "the opponent of an illegal knock)",
    "correction-expected": "an offender correcting a wrong number of cards who does not, on their turn, only draw "
                           "(too few cards) or only discard (too many)",
    "knock-banned": "a knock the rules forbid for now: after a correction, before the offender's next turn; after "
                    "cards seen illegally, before the offender's next turn, unless with gin",
    "seen-cards": "a seen move whose cards are not in the stock",
    "seen-turn": "a seen move whose in_turn does not say whose turn it is, or cards seen after the knock",
    "exposed-draw": "a draw of an exposed card that is not exposed, or that the player may not take now (the other "
                    "player takes first, until drawing from the stock; the offender never, after seeing it out of "
                    "turn)",
    "knock-not-illegal": "an illegal-knock move after a legal knock, or where no knock awaits being found illegal, "
                         "or naming another player than the knocker",
}
