"""openFDA as the replay server plays it, from the recorded real responses in
``../shared/data/api-responses/openfda/``.

- ``/drug/label.json?search=<field>:"<name>"``: the labels indexed under that name for that field
  (the recorded HUMIRA label, ``druglabel/search.0.response``, is under brand name "Humira",
  generic name "adalimumab" and its set id), at most ``limit`` of them, with ``meta.results.total``;
  anything else: openFDA's 404 ``NOT_FOUND``. A search holding ``OR`` gets openFDA's HTTP 500 (what
  peers who sent ``+OR+`` queries got).
- ``/drug/event.json``: a ``count`` query for a known drug gets ``drugevent/count.0.response``. That
  recording counts ``patient.drug.openfda.pharm_class_epc.exact`` (see its ``.request``), but its shape
  — ``{"results": [{"term", "count"}]}`` — is what every count query returns, so it stands in for the
  reaction count; a ``limit=1`` search gets ``drugevent/search.0.response`` (``meta.results.total`` 1).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.tools.evidence.replay import ReplayServer, Reply, Request

__all__ = ["NOT_FOUND", "OpenFda", "install_openfda"]

NOT_FOUND = {"error": {"code": "NOT_FOUND", "message": "No matches found!"}}
_SEARCH = re.compile(r'^(?P<field>[\w.]+):(?:"(?P<quoted>(?:[^"\\]|\\.)*)"|(?P<bare>[^\s"]+))(?P<rest>.*)$')


def parse_search(search: str) -> tuple[str, str, str] | None:
    """``field:"value" rest`` -> (field, value unescaped, rest); None when it is not that shape."""
    match = _SEARCH.match(search)
    if match is None:
        return None
    value = match["quoted"] if match["quoted"] is not None else match["bare"]
    return match["field"], re.sub(r"\\(.)", r"\1", value), match["rest"].strip()


@dataclass
class OpenFda:
    """The recorded openFDA data, and the labels and event names the routes answer for."""

    root: Path  # .../api-responses/openfda
    labels: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    event_names: dict[str, set[str]] = field(default_factory=dict)
    broken_names: set[str] = field(default_factory=set)  # label lookups answered with HTTP 500
    fail_totals: bool = False  # event searches without count answered with HTTP 500

    def __post_init__(self) -> None:
        self.label_page = json.loads((self.root / "druglabel" / "search.0.response").read_text())
        self.event_count = json.loads((self.root / "drugevent" / "count.0.response").read_text())
        self.event_search = json.loads((self.root / "drugevent" / "search.0.response").read_text())
        humira = self.label_page["results"][0]
        self.add_label(humira, brand="Humira", generic="adalimumab")
        self.event_names = {
            "patient.drug.medicinalproduct": {"humira"},
            "patient.drug.openfda.generic_name": {"adalimumab"},
        }

    @property
    def humira(self) -> dict[str, Any]:
        return copy.deepcopy(self.label_page["results"][0])

    def add_label(self, label: dict[str, Any], *, brand: str | None = None, generic: str | None = None) -> None:
        for key, name in (
            ("openfda.brand_name", brand),
            ("openfda.generic_name", generic),
            ("set_id", label.get("set_id")),
        ):
            if name:
                self.labels.setdefault((key, name.casefold()), []).append(label)

    # --- responders --------------------------------------------------------------------------

    def label(self, request: Request) -> Reply:
        search = request.arg("search") or ""
        if " OR " in search or "+OR+" in search:
            return Reply.of_json(
                {"error": {"code": "SERVER_ERROR", "message": "Check your request and try again"}}, 500
            )
        parsed = parse_search(search)
        if parsed is None:
            return Reply.of_json({"error": {"code": "BAD_REQUEST", "message": "Syntax error"}}, 400)
        key, value, _ = parsed
        if value.casefold() in self.broken_names:
            return Reply.of_json(
                {"error": {"code": "SERVER_ERROR", "message": "Check your request and try again"}}, 500
            )
        found = self.labels.get((key, value.casefold()), [])
        if not found:
            return Reply.of_json(NOT_FOUND, 404)
        limit = int(request.arg("limit", "1") or "1")
        meta = copy.deepcopy(self.label_page["meta"])
        meta["results"] = {"skip": 0, "limit": limit, "total": len(found)}
        return Reply.of_json({"meta": meta, "results": found[:limit]})

    def event(self, request: Request) -> Reply:
        parsed = parse_search(request.arg("search") or "")
        if parsed is None:
            return Reply.of_json({"error": {"code": "BAD_REQUEST", "message": "Syntax error"}}, 400)
        key, value, rest = parsed
        if rest not in ("", "AND serious:1") or value.casefold() not in self.event_names.get(key, set()):
            return Reply.of_json(NOT_FOUND, 404)
        if request.arg("count"):
            limit = int(request.arg("limit", "100") or "100")
            body = copy.deepcopy(self.event_count)
            body["results"] = body["results"][:limit]
            return Reply.of_json(body)
        if self.fail_totals:
            return Reply.of_json(
                {"error": {"code": "SERVER_ERROR", "message": "Check your request and try again"}}, 500
            )
        return Reply.of_json(self.event_search)


def install_openfda(replay: ReplayServer, shared_data: Path) -> OpenFda:
    """Serve openFDA under ``<replay.url>/openfda`` (where ``evidence_settings`` points it)."""
    fda = OpenFda(shared_data / "api-responses" / "openfda")
    replay.route("GET", "/openfda/drug/label.json", fda.label)
    replay.route("GET", "/openfda/drug/event.json", fda.event)
    return fda
