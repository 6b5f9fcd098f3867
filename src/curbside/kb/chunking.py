"""Hierarchical, section-based chunking under a hard token cap.

A section that fits is one chunk (child titles and text included). A section
too large gives its own blocks as chunk(s) and recurses into its children. A
block is a unit (a paragraph, list item, table row, label line …): it is never
split when it fits under the cap with its title path, and blocks are joined by a
blank line, so each stays a line of its own in the chunk text; a caption or
heading-like block does not end a chunk when more of its section follows. A block too large
is split into its lines (multi-line blocks such as code), a line into sentences,
a sentence into words, a word into character windows. Every chunk is ``title
path`` + blank line + body, and its whole text is counted with the caller's
counter: no chunk is emitted without a real count at or under the cap.

Size control: each text piece is counted once (in batches); groups are built
from those counts plus the measured cost of a join, then verified with one real
count, dropping the last piece into the next group while the count is over.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from curbside.errors import ConfigError
from curbside.kb.document import LoadedDocument, Section
from curbside.sentences import split_sentences

__all__ = ["Chunk", "Chunker", "SizeDistribution", "TokenCounter", "size_distribution"]

TokenCounter = Callable[[Sequence[str]], list[int]]

_VERSION = "hierarchical-v2"  # v2: a block too large splits into lines before sentences
_MIN_MAX_TOKENS = 32
_PARA = "\n\n"
_ELLIPSIS = " … "
# Split levels: a unit too large at one level is split into pieces of the next. The
# joiner of a level is what goes between the pieces of that level in a chunk.
_BLOCK, _LINE, _SENTENCE, _WORD, _CHARS = range(5)
_JOINERS = {_BLOCK: _PARA, _LINE: "\n", _SENTENCE: " ", _WORD: " ", _CHARS: ""}


@dataclass(frozen=True, slots=True)
class Chunk:
    ordinal: int  # 0-based order within the document
    section_path: tuple[str, ...]  # titles below the document title
    text: str  # title path line + "\n\n" + body
    token_count: int  # the whole text, counted with the chunker's counter
    page: int | None
    page_end: int | None


class Chunker:
    """Splits a ``LoadedDocument`` into chunks of at most ``max_tokens`` tokens each."""

    def __init__(self, max_tokens: int, count_tokens: TokenCounter, *, path_separator: str = " > ") -> None:
        if max_tokens < _MIN_MAX_TOKENS:
            raise ConfigError(f"chunk max_tokens must be at least {_MIN_MAX_TOKENS}, got {max_tokens}")
        if not path_separator or "\n" in path_separator:
            raise ConfigError("chunk path_separator must be non-empty and on one line")
        self.max_tokens = max_tokens
        self.path_separator = path_separator
        self._count = count_tokens
        self._probe_cache: dict[str, int] = {}  # counts of the join probes: a property of the counter

    def chunk(self, doc: LoadedDocument, *, check: Callable[[], None] | None = None) -> list[Chunk]:
        """The document's chunks; ``check`` is called before each chunk is cut (it may raise to stop)."""
        run = _Run(self.max_tokens, self._count, self.path_separator, doc, self._probe_cache, check)
        return run.chunks()

    def fingerprint(self) -> str:
        """Identifies everything that shapes the output; goes into the content hash."""
        fn = self._count
        counter = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', type(fn).__qualname__)}"
        return f"{_VERSION};max_tokens={self.max_tokens};sep={self.path_separator};counter={counter}"


@dataclass(frozen=True, slots=True)
class _Unit:
    text: str
    tokens: int  # counted alone, special tokens included
    page: int | None
    leads: bool = False  # a caption or heading-like line: kept with the unit after it


_LEADING_KINDS = frozenset({"caption", "heading"})


@dataclass(frozen=True, slots=True)
class _Head:
    path: tuple[str, ...]  # section titles below the document title
    line: str  # the title path line as written ("" when nothing has a title)
    cost: int  # tokens the line adds to a chunk: its count (specials included) plus the blank-line join


class _Run:
    """One document's chunking; holds the count cache and the output."""

    def __init__(
        self,
        cap: int,
        counter: TokenCounter,
        sep: str,
        doc: LoadedDocument,
        probe_cache: dict[str, int],
        check: Callable[[], None] | None = None,
    ) -> None:
        self.check = check
        self.cap = cap
        self.sep = sep
        self.counter = counter
        self.doc = doc
        self.doc_title = _clean(doc.title)
        self.cache: dict[str, int] = {}
        self.heads: dict[tuple[str, ...], _Head] = {}
        self.out: list[Chunk] = []
        probes = ["", "word", *(f"word{j}word" for j in set(_JOINERS.values()))]
        if not probe_cache:
            probe_cache.update(zip(probes, counter(probes), strict=True))
        self.cache.update(probe_cache)
        sections = doc.root.walk()
        texts = [b.text.strip() for s in sections for b in s.blocks] + [_clean(s.title) for s in sections]
        self.count_many(texts)  # one batch for every block and title
        # Counts are additive up to the special tokens each count includes and what a join adds.
        self.special = self.cache[""]
        word = self.cache["word"]
        self.join_cost = {j: max(0, self.cache[f"word{j}word"] - 2 * word + self.special) for j in _JOINERS.values()}

    def chunks(self) -> list[Chunk]:
        root = self.doc.root
        title = _clean(root.title)
        self._section(root, (title,) if title and title != self.doc_title else ())
        return self.out

    # --- counting -------------------------------------------------------------------

    def count_many(self, texts: Sequence[str]) -> list[int]:
        missing = list(dict.fromkeys(t for t in texts if t not in self.cache))
        if missing:
            self.cache.update(zip(missing, self.counter(missing), strict=True))
        return [self.cache[t] for t in texts]

    def count(self, text: str) -> int:
        return self.count_many([text])[0]

    # --- the section tree ------------------------------------------------------------

    def _section(self, sec: Section, path: tuple[str, ...]) -> None:
        units = self._subtree_units(sec)
        if not units:
            return
        head = self._head(path)
        if self._estimate(head, units, _PARA) <= self.cap and self._emit_if_fits(head, units, _PARA):
            return
        self._pack(head, self._own_units(sec), _BLOCK)
        for child in sec.children:
            title = _clean(child.title)
            self._section(child, (*path, title) if title else path)

    def _own_units(self, sec: Section) -> list[_Unit]:
        return [_Unit(t, self.count(t), b.page, b.kind in _LEADING_KINDS) for b in sec.blocks if (t := b.text.strip())]

    def _subtree_units(self, sec: Section) -> list[_Unit]:
        """Own blocks, then each non-empty child's title and units, in document order."""
        units = self._own_units(sec)
        for child in sec.children:
            inner = self._subtree_units(child)
            if inner:
                if title := _clean(child.title):
                    units.append(_Unit(title, self.count(title), None))
                units.extend(inner)
        return units

    # --- packing and splitting -------------------------------------------------------

    def _estimate(self, head: _Head, units: Sequence[_Unit], joiner: str) -> int:
        body = sum(u.tokens - self.special for u in units)
        return head.cost + body + (len(units) - 1) * self.join_cost[joiner]

    def _pack(self, head: _Head, units: list[_Unit], level: int) -> None:
        """Greedy groups of consecutive units under the cap; a unit too large alone is split."""
        joiner = _JOINERS[level]
        step = self.join_cost[joiner] - self.special
        i = 0
        while i < len(units):
            est = head.cost + units[i].tokens - self.special
            if est > self.cap:
                self._split(head, units[i], level)
                i += 1
                continue
            j = i + 1
            while j < len(units) and est + step + units[j].tokens <= self.cap:
                est += step + units[j].tokens
                j += 1
            while i + 1 < j < len(units) and units[j - 1].leads:
                j -= 1  # a caption or heading line opens the next chunk, with what it introduces
            # Verify with a real count; back off one unit at a time while over.
            while not self._emit_if_fits(head, units[i:j], joiner):
                if j - i == 1:
                    self._split(head, units[i], level)
                    break
                j -= 1
            i = j

    def _split(self, head: _Head, unit: _Unit, level: int) -> None:
        text = unit.text
        if level == _BLOCK:
            pieces = [line for raw in text.splitlines() if (line := raw.strip())]
        elif level == _LINE:
            pieces = split_sentences(text)
        elif level == _SENTENCE:
            pieces = text.split()
        elif level == _WORD:
            pieces = self._char_windows(head, unit)
        elif len(text) > 1:
            pieces = [text[: len(text) // 2], text[len(text) // 2 :]]
        else:
            raise ValueError(f"cannot fit one character under {self.cap} tokens with its title path")
        if len(pieces) < 2 and level < _CHARS:
            self._split(head, unit, level + 1)  # nothing to split at this level: go finer
            return
        counts = self.count_many(pieces)
        self._pack(head, [_Unit(p, n, unit.page) for p, n in zip(pieces, counts, strict=True)], min(level + 1, _CHARS))

    def _char_windows(self, head: _Head, unit: _Unit) -> list[str]:
        """Windows sized from the unit's tokens per character, with 10 % slack."""
        text = unit.text
        room = max(1, self.cap - head.cost)
        width = int(len(text) * room / max(1, unit.tokens - self.special) * 0.9)
        width = max(1, min(width, len(text) - 1))
        return [text[k : k + width] for k in range(0, len(text), width)]

    def _emit_if_fits(self, head: _Head, units: Sequence[_Unit], joiner: str) -> bool:
        if self.check is not None:
            self.check()
        body = joiner.join(u.text for u in units)
        text = f"{head.line}{_PARA}{body}" if head.line else body
        tokens = self.counter([text])[0]
        if tokens > self.cap:
            return False
        pages = [u.page for u in units if u.page is not None]
        page, page_end = (min(pages), max(pages)) if pages else (None, None)
        self.out.append(Chunk(len(self.out), head.path, text, tokens, page, page_end))
        return True

    # --- title paths -----------------------------------------------------------------

    def _head(self, path: tuple[str, ...]) -> _Head:
        if path not in self.heads:
            parts = [self.doc_title, *path] if self.doc_title else list(path)
            if not parts:
                self.heads[path] = _Head(path, "", self.special)
            else:
                # The path may take at most three quarters of the cap, so a body always fits.
                limit = self.cap - self.cap // 4
                line = self.sep.join(parts)
                if self.count(line) > limit:
                    line = self._shorten(parts, limit)
                self.heads[path] = _Head(path, line, self.count(line) + self.join_cost[_PARA])
        return self.heads[path]

    def _shorten(self, parts: list[str], limit: int) -> str:
        """First part (the document title) ' … ' the most last titles that fit, else truncated titles."""
        first, rest = parts[0], parts[1:]
        if not rest:
            return self._truncate(first, limit)
        candidates = [first + _ELLIPSIS + self.sep.join(rest[-k:]) for k in range(len(rest) - 1, 0, -1)]
        for cand, n in zip(candidates, self.count_many(candidates), strict=True):
            if n <= limit:
                return cand
        lead = self._truncate(first, limit // 2) + _ELLIPSIS
        line = lead + self._truncate(rest[-1], limit - self.count(lead) + self.special)
        return line if self.count(line) <= limit else self._truncate(line, limit)

    def _truncate(self, text: str, limit: int) -> str:
        """The longest word (else character) prefix of ``text`` plus '…' within ``limit`` tokens."""
        if self.count(text) <= limit:
            return text
        words = text.split()
        k = _longest(len(words) - 1, lambda k: self.count(" ".join(words[:k]) + "…") <= limit)
        if k:
            return " ".join(words[:k]) + "…"
        k = _longest(len(words[0]) - 1, lambda k: self.count(words[0][:k] + "…") <= limit)
        return words[0][:k] + "…"


def _longest(n: int, ok: Callable[[int], bool]) -> int:
    """The largest k in [0, n] with ok(k), for ok monotone and ok(0) assumed."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _clean(title: str | None) -> str:
    """A title on one line with single spaces ("" for None)."""
    return " ".join(title.split()) if title else ""


# --- size report -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SizeDistribution:
    max_tokens: int
    count: int
    min: int
    p50: int
    p95: int
    max: int
    mean: float
    over_cap: int
    buckets: tuple[tuple[str, int], ...]  # (label, chunks), quarters of the cap then "over"

    def to_dict(self) -> dict[str, object]:
        return {
            "max_tokens": self.max_tokens, "count": self.count, "min": self.min, "p50": self.p50,
            "p95": self.p95, "max": self.max, "mean": round(self.mean, 1), "over_cap": self.over_cap,
            "buckets": dict(self.buckets),
        }

    def format_table(self) -> str:
        stats = [
            ("chunks", str(self.count)),
            ("min tokens", str(self.min)),
            ("p50", str(self.p50)),
            ("p95", str(self.p95)),
            ("max", str(self.max)),
            ("mean", f"{self.mean:.1f}"),
            (f"over cap ({self.max_tokens})", str(self.over_cap)),
        ]
        width = max(len(k) for k, _ in stats)
        lines = [f"{k:<{width}}  {v:>8}" for k, v in stats]
        lines.append("")
        label_w = max(len("tokens"), *(len(label) for label, _ in self.buckets))
        lines.append(f"{'tokens':<{label_w}}  {'chunks':>8}  {'share':>6}")
        for label, n in self.buckets:
            share = 100 * n / self.count if self.count else 0.0
            lines.append(f"{label:<{label_w}}  {n:>8}  {share:>5.1f}%")
        return "\n".join(lines)


def size_distribution(chunks: Sequence[Chunk], max_tokens: int) -> SizeDistribution:
    sizes = sorted(c.token_count for c in chunks)
    edges = [round(max_tokens * q / 4) for q in range(1, 5)]
    labels = [f"≤{edges[0]}"] + [f"{lo + 1}–{hi}" for lo, hi in zip(edges, edges[1:], strict=False)]
    counts = [0] * (len(edges) + 1)
    for s in sizes:
        counts[next((i for i, e in enumerate(edges) if s <= e), len(edges))] += 1
    buckets = tuple(zip([*labels, f">{max_tokens}"], counts, strict=True))
    if not sizes:
        return SizeDistribution(max_tokens, 0, 0, 0, 0, 0, 0.0, 0, buckets)
    return SizeDistribution(
        max_tokens=max_tokens,
        count=len(sizes),
        min=sizes[0],
        p50=_percentile(sizes, 50),
        p95=_percentile(sizes, 95),
        max=sizes[-1],
        mean=sum(sizes) / len(sizes),
        over_cap=counts[-1],
        buckets=buckets,
    )


def _percentile(sorted_sizes: Sequence[int], q: float) -> int:
    """Nearest-rank percentile."""
    return sorted_sizes[max(0, math.ceil(q / 100 * len(sorted_sizes)) - 1)]
