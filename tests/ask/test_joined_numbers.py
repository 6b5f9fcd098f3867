from __future__ import annotations

from collections.abc import Mapping, Sequence

from curbside.ask.generic_names import with_generic_names
from curbside.ask.joined_numbers import joined_numbers

# chunks holding each word, as the lexical index counts them: the CEP page writes 'GAD-7' and 'PHQ-9' ('gad', '7'),
# an immunology abstract 'CD4'
HELD = {"gad": 3, "phq": 4, "cd4": 12, "cd": 2, "7": 40, "9": 35}


def frequencies(words: Sequence[str]) -> Mapping[str, int]:
    return {w: HELD.get(w, 0) for w in words}


def test_a_name_typed_with_its_number_joined_is_written_apart() -> None:
    apart = joined_numbers("gad7 came back 7 - how do i classify that", frequencies)
    assert apart == [("gad7", "GAD-7")]
    assert with_generic_names("gad7 came back 7", apart) == "GAD-7 came back 7"
    assert joined_numbers("phq9 of 16 - severity?", frequencies) == [("phq9", "PHQ-9")]


def test_a_name_held_as_typed_or_letters_unknown_stay() -> None:
    assert joined_numbers("CD4 count below 200 - start prophylaxis?", frequencies) == []  # held as typed
    assert joined_numbers("xyz12 levels?", frequencies) == []  # its letters are in no chunk
    assert joined_numbers("b12 on metformin?", frequencies) == []  # one letter: not a joined name
