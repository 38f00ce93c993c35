"""FORMATS.md, "Cards": canonical form, accepted spellings, and errors."""

from __future__ import annotations

import pytest

from gincli.base.errors import RecordError
from gincli.rulebook.cards import CARD_NAMES, CARD_VALUES, card_str, cut_key, parse_card, parse_cards


def test_canonical_form_round_trips_all_52_cards():
    assert len(set(CARD_NAMES)) == 52
    for c in range(52):
        assert parse_card(card_str(c)) == c
    assert card_str(parse_card("Td")) == "Td"


@pytest.mark.parametrize("token,canonical", [
    ("10d", "Td"), ("10♥", "Th"), ("TD", "Td"), ("AS", "As"), ("K♣", "Kc"), ("2♦", "2d"), ("Q♠", "Qs"),
])
def test_accepted_spellings_are_read_and_written_canonically(token, canonical):
    assert card_str(parse_card(token)) == canonical


@pytest.mark.parametrize("token", ["Xx", "1s", "11h", "as", "T", "", "Tdd", "♥T", "10", "Ts "])
def test_anything_else_is_an_error_quoting_the_token(token):
    with pytest.raises(RecordError) as err:
        parse_card(token)
    assert f'"{token}"' in str(err.value)


def test_non_string_card_is_an_error():
    with pytest.raises(RecordError, match="string"):
        parse_cards([7], "ann's hand")
    with pytest.raises(RecordError, match="must be a list"):
        parse_cards("As Ks", "ann's hand")


def test_values_ace_one_pips_face_cards_ten():
    assert [CARD_VALUES[parse_card(r + "s")] for r in "A23456789TJQK"] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_cutting_order_ranks_suits_spades_hearts_diamonds_clubs():
    order = sorted(["Kc", "Kd", "Ks", "Kh", "As"], key=lambda t: cut_key(parse_card(t)))
    assert order == ["As", "Kc", "Kd", "Kh", "Ks"]
