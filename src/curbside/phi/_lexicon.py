"""Word lists the detector consults, loaded once per process from installed packages.

* given names and surnames: the US Census 1990 name-frequency lists shipped by ``names``
  (5,163 given names, 88,799 surnames);
* English dictionary words: Webster's Second (``web2``) from ``english-words``; only its
  lower-case entries count, so "bill" is a word but "David" is not;
* word frequency on the Zipf scale from ``wordfreq`` (its "large" English list);
* places: GeoNames cities over 15,000 people and country names (``geotext``), plus the US
  states and Canadian provinces written out below;
* clinical terms: ``data/clinical_terms.txt`` in this package, written by hand.

No list here was built from the evaluation notes or their PHI. The built lexicon is kept between
processes by ``_lexicon_cache``.
"""

from __future__ import annotations

import math
import pickle
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from curbside.errors import PhiDetectorError

__all__ = ["Lexicon", "build_lexicon", "load_lexicon", "one_edit"]

# Spelled out here (ISO 3166-2:US and :CA names) rather than pulled from a package.
_STATES_AND_PROVINCES = """
alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho
illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota
mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah
vermont virginia washington wisconsin wyoming ontario quebec alberta manitoba saskatchewan yukon nunavut
""".split()
_MULTIWORD_REGIONS = [
    "new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota",
    "rhode island", "south carolina", "south dakota", "west virginia", "district of columbia",
    "british columbia", "nova scotia", "new brunswick", "prince edward island", "newfoundland and labrador",
    "northwest territories",
]  # fmt: skip
_MULTIWORD_PLACES = ["eastern shore", "cape cod", "long island"]  # regions smaller than a state


_INFLECTIONS = (
    ("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"),
    ("ly", ""), ("'s", ""), ("’s", ""),
)  # fmt: skip


# Stems of nonproprietary drug names (USAN Council, "Stems" list; AMA): a name ending so is a drug.
_DRUG_STEMS = tuple(
    """
    mab ximab zumab umab tinib rafenib ciclib parib lisib platin taxel rubicin tecan mustine
    pril sartan olol dipine statin parin xaban gatran fibrate gliptin gliflozin glutide glinide
    cillin cycline mycin floxacin penem cef conazole fungin vir virine buvir previr asvir
    prazole tidine setron lukast terol tropium sonide olone methasone cortisone
    semide thiazide zepam zolam barbital oxetine triptyline triptan perone peridol apine
    caine curium curonium profen coxib dronate tide relin orsen siran cept kinra
    """.split()
)
_COMMON_FREQUENCY = 10**-5.5  # Zipf 3.5: about one word in 300,000


def _deletes(words: set[str] | frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Each word and every string one deletion away -> the words (a symmetric-delete spelling index)."""
    out: dict[str, list[str]] = {}
    for word in words:
        for variant in {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}:
            out.setdefault(variant, []).append(word)
    return {k: tuple(v) for k, v in out.items()}


def _near(word: str, index: dict[str, tuple[str, ...]]) -> bool:
    """Whether an indexed word is one edit (insertion, deletion, substitution or swap) from ``word``."""
    if len(word) < 4:
        return False
    candidates = set(index.get(word, ()))
    for i in range(len(word)):
        candidates.update(index.get(word[:i] + word[i + 1 :], ()))
    return any(candidate != word and _one_edit(word, candidate) for candidate in candidates) or word in index.get(
        word, ()
    )


def one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one insertion, deletion, substitution or swap of neighbours."""
    return _one_edit(a, b)


def _one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diffs) <= 1:
            return True
        i, j = diffs[0], diffs[-1]
        return len(diffs) == 2 and j == i + 1 and a[i] == b[j] and a[j] == b[i]  # a swap
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


def _clinical_prefix(word: str, clinical: frozenset[str]) -> bool:
    """A clipped clinical term: 'amiod', 'levoq' (4+ letters starting a 7+ letter term)."""
    if len(word) < 4:
        return False
    return any(term.startswith(word) for term in _long_terms(clinical) if term[:2] == word[:2])


@lru_cache(maxsize=1)
def _long_terms(clinical: frozenset[str]) -> tuple[str, ...]:
    return tuple(t for t in clinical if len(t) >= 7)


@dataclass(frozen=True, slots=True)
class Lexicon:
    given_names: frozenset[str]
    surnames: frozenset[str]
    surname_rank: dict[str, int]  # 1 = the most common US surname
    given_rank: dict[str, int]  # 1 = the most common given name (of either list)
    nationalities: frozenset[str]
    dictionary: frozenset[str]
    frequency: dict[str, float]
    clinical: frozenset[str]
    clinical_phrases: tuple[tuple[str, ...], ...]
    clinical_deletes: dict[str, tuple[str, ...]]  # spelling index of the clinical terms
    common_deletes: dict[str, tuple[str, ...]]  # the same for common English words that are not names
    regions: frozenset[str]  # states, provinces, countries (not PHI under Safe Harbor)
    places: frozenset[str]
    near_places: frozenset[str]  # US and Canadian cities, cities over a million, states, provinces, countries
    place_phrases: frozenset[tuple[str, ...]]  # names of two words or more, as words: ("new", "york")
    longest_place_phrase: int  # words in the longest of them (a lookup reads no further)

    def near_clinical(self, word: str) -> bool:
        """One edit (or a swap) away from a clinical term: 'Labetelol', 'Passey', 'Amiod' (prefix)."""
        return len(word) >= 5 and (_near(word, self.clinical_deletes) or _clinical_prefix(word, self.clinical))

    def near_common(self, word: str) -> bool:
        """One edit (or a swap) away from a common English word: 'duaghter', 'recieve', 'stabel'
        (six letters or more: shorter words are one edit from too many others, names included)."""
        return len(word) >= 6 and _near(word, self.common_deletes)

    def drug_like(self, word: str) -> bool:
        """Ends in a drug-name stem (the USAN stems: 'cemiplimab', 'brigatinib', 'labetalol')."""
        return len(word) >= 7 and word.endswith(_DRUG_STEMS)

    def zipf(self, word: str) -> float:
        """Zipf frequency of a lower-case word (0 when unknown; 'the' is about 7.7)."""
        freq = self.frequency.get(word)
        return math.log10(freq) + 9.0 if freq else 0.0

    def is_name(self, word: str) -> bool:
        return word in self.given_names or word in self.surnames

    def is_word(self, word: str) -> bool:
        """An English word: in the dictionary or an inflection of one ("states", "awaiting")."""
        if word in self.dictionary:
            return True
        for suffix, replacement in _INFLECTIONS:
            stem_length = len(word) - len(suffix)
            if stem_length >= 3 and word.endswith(suffix):
                stem = word[:stem_length] + replacement
                if stem in self.dictionary:
                    return True
                if replacement == "" and stem_length >= 4 and stem[-1] == stem[-2] and stem[:-1] in self.dictionary:
                    return True  # "stopped", "running"
        return False


@lru_cache(maxsize=1)
def load_lexicon() -> Lexicon:
    """The lists, read once per process: from the cache file of an earlier process when its inputs
    are unchanged (``_lexicon_cache``), else built (about a second)."""
    from curbside.phi._lexicon_cache import cached_lexicon

    return cached_lexicon(build_lexicon)


def build_lexicon() -> Lexicon:
    """The lists, read from their packages and indexed."""
    try:
        given, surnames, surname_rank, given_rank = _census_names()
        nationalities = _nationalities()
        dictionary = _dictionary_words()
        frequency = _word_frequency()
        places, near_places, place_phrases, regions = _places()
        clinical, clinical_phrases = _clinical_terms()
    except (ImportError, OSError, ValueError, pickle.UnpicklingError) as exc:
        raise PhiDetectorError(
            f"A PHI word list could not be loaded ({exc}). Reinstall Curbside's dependencies: pip install -e ."
        ) from exc
    common = {
        w for w, f in frequency.items()
        if f >= _COMMON_FREQUENCY and len(w) >= 4 and w.isalpha() and (w in dictionary or (w not in given and w not in surnames))
    }  # fmt: skip
    return Lexicon(
        given_names=given,
        surnames=surnames,
        surname_rank=surname_rank,
        given_rank=given_rank,
        nationalities=nationalities,
        dictionary=dictionary,
        frequency=frequency,
        clinical=clinical,
        clinical_phrases=clinical_phrases,
        clinical_deletes=_deletes({w for w in clinical if len(w) >= 4}),
        common_deletes=_deletes(common),
        regions=regions,
        places=places,
        near_places=near_places,
        place_phrases=place_phrases,
        longest_place_phrase=max(map(len, place_phrases), default=0),
    )


def _census_names() -> tuple[frozenset[str], frozenset[str], dict[str, int], dict[str, int]]:
    root = resources.files("names")

    def read(name: str) -> list[str]:
        return [line.split()[0].lower() for line in root.joinpath(name).read_text().splitlines() if line.strip()]

    surnames = read("dist.all.last")  # each list in order of frequency
    female, male = read("dist.female.first"), read("dist.male.first")
    given_rank: dict[str, int] = {}
    for names in (female, male):
        for rank, name in enumerate(names, start=1):
            given_rank[name] = min(rank, given_rank.get(name, rank))
    ranks = {name: rank for rank, name in enumerate(surnames, start=1)}
    return frozenset(given_rank), frozenset(surnames), ranks, given_rank


def _nationalities() -> frozenset[str]:
    text = resources.files("geotext").joinpath("data", "nationalities.txt").read_text(encoding="utf-8")
    words = {
        line.split(":")[0].strip().lower() for line in text.splitlines() if ":" in line and not line.startswith("#")
    }
    # languages and peoples the list spells differently
    words |= {"english", "british", "american", "canadian", "french", "spanish", "latino", "hispanic", "asian"}
    return frozenset(w for w in words if w)


# Irregular past forms, which neither Webster's headwords nor the inflection rules produce.
_IRREGULAR = """
ate awoke became began bent bit bled blew bore bought bound bred brought built burnt caught chose clung came
crept dealt did drank drew drove dug dwelt fed fell felt fled flew flung forbade forgave forgot fought found froze
gave went got grew ground hung heard held hid hit hurt kept knelt knew laid led leapt learnt left lent lit lost
made meant met paid pled quit ran rang read rode rose said sang sank sat saw shed shone shook shot shrank shut
slept slid slung smelt sold sought sped spent spilt spoke sprang spun stood stole stuck stung stank strode
struck strove swept swore swam swung taught tore told thought threw thrust took understood woke wore wove wept
won wound wrote written spoken taken given driven eaten fallen forgotten gotten hidden known ridden risen seen
shaken stolen sworn thrown torn worn woven
""".split()


def _dictionary_words() -> frozenset[str]:
    data = resources.files("english_words").joinpath("data", "web2_alpha.pickle").read_bytes()
    words: set[str] = pickle.loads(data)  # noqa: S301 - a data file of an installed package
    return frozenset(w for w in words if w.islower()) | frozenset(_IRREGULAR)


def _word_frequency() -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict("en", "large")


def _places() -> tuple[frozenset[str], frozenset[str], frozenset[tuple[str, ...]], frozenset[str]]:
    """Cities (all of GeoNames' over 15,000 people; 'near': US, Canadian and million-plus cities).

    States, provinces and countries are left out on purpose: HIPAA's Safe Harbor keeps them
    (only "geographic subdivisions smaller than a state" are identifiers).
    """
    root = resources.files("geotext").joinpath("data")
    names: set[str] = set(_MULTIWORD_PLACES)
    near: set[str] = set()
    for line in root.joinpath("cities15000.txt").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if len(fields) > 14:
            city = {fields[1].lower(), fields[2].lower()}
            names |= city
            if fields[8] in {"US", "CA"} or (fields[14].isdigit() and int(fields[14]) >= 1_000_000):
                near |= city
    regions = set(_STATES_AND_PROVINCES) | {r for r in _MULTIWORD_REGIONS}
    for line in root.joinpath("countryInfo.txt").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if not line.startswith(("#", "\ufeff#")) and len(fields) > 5:
            regions.add(fields[4].lower())
    names -= regions
    near -= regions
    singles = frozenset(n for n in names if n and " " not in n and "-" not in n)
    phrases = frozenset(words for name in names if len(words := tuple(name.replace("-", " ").split())) > 1)
    return singles, frozenset(n for n in near if " " not in n), phrases, frozenset(regions)


def _clinical_terms() -> tuple[frozenset[str], tuple[tuple[str, ...], ...]]:
    text = resources.files("curbside.phi").joinpath("data", "clinical_terms.txt").read_text(encoding="utf-8")
    words: set[str] = set()
    phrases: list[tuple[str, ...]] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("="):
            phrases.append(tuple(line[1:].replace("-", " ").split()))
        else:
            words.update(line.split())
    return frozenset(words), tuple(phrases)
