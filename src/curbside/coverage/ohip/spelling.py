"""One spelling for the British and American forms of a word, so a clerk's 'hemoglobin' meets the Schedule's
'Haemoglobin' (G481, J66) and 'anesthetic' its 'anaesthetic'.

The Schedule writes British forms (haem-, anaesth-, paediatr-, oesophag-, gynaecol-, oedema, labour); clerks
often write American ones. Both sides of every word match go through ``query.stem``, which takes this form
first: a rule of English orthography, not a list of the Schedule's codes or phrases.
"""

from __future__ import annotations

import re

__all__ = ["american"]

# the British digraph before the letters it is met in, and the American letter for it
_DIGRAPHS = re.compile(
    r"(?:(?<=h)|(?<=an)|(?<=leuk)|(?<=isch)|(?<=glyc)|(?<=septic)|(?<=tox))ae(?=m)"  # haem-, anaemia, ischaemia
    r"|ae(?=sth)"  # anaesthesia, aesthetic
    r"|(?<=p)ae(?=d)"  # paediatric, orthopaedic
    r"|(?<=gyn)ae(?=c)"  # gynaecology
    r"|^oe(?=soph|dem|str)"  # oesophagus, oedema, oestrogen
    r"|(?<=^f)oe(?=t)"  # foetal
    r"|(?<=^c)oe(?=liac)"  # coeliac
    r"|(?<=rrh)oe(?=a)"  # diarrhoea, gonorrhoea
)
# 'tumour', 'labour', 'colour', 'behaviour' (not 'four', 'hour', 'your': a letter pair must come before)
_OUR = re.compile(r"(?<=[a-z]{3})our(?=s?$|ed$|ing$)")
_RE_ENDING = re.compile(r"(?<=[a-z]{2}[^aeiou])re(?=s?$)")  # centre, litre, metre (not 'are', 'core', 'pre')
_KEEP_RE = frozenset({"acre", "acres", "genre", "genres", "ogre", "massacre"})


def american(word: str) -> str:
    """``word`` (lower case) in its American spelling: 'haemoglobin' -> 'hemoglobin', 'paediatric' -> 'pediatric',
    'tumour' -> 'tumor', 'centre' -> 'center'; a word with no British form comes back as it is."""
    word = _DIGRAPHS.sub(lambda m: "e" if m.group(0) in ("ae", "oe") else m.group(0), word)
    word = _OUR.sub("or", word)
    if word not in _KEEP_RE:
        word = _RE_ENDING.sub("er", word)
    return word
