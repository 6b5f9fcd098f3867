"""The FHIR R4 client against a real loopback server serving real Synthea resources: paging through
``Bundle.link[next]`` with ``_count`` / ``_sort`` / ``_include``, OperationOutcome messages, 404 and
401/403, writes, SMART backend-services tokens (secret and signed JWT, checked on the server side,
reused until expiry), retries on 429 / 503 honouring Retry-After, timeouts, the circuit breaker."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlencode

import pytest

from curbside.errors import ConfigError, NotFoundError, RateLimitedError, UpstreamError
from curbside.settings import Settings
from curbside.tools.ehr.fhir_client import HttpFhirClient
from curbside.tools.ehr.fhir_config import FhirAuthMode, FhirConfig
from curbside.tools.ehr.fhir_errors import (
    FhirAuthError,
    FhirConflictError,
    FhirNotFoundError,
    FhirRejectedError,
    FhirServerError,
)
from tests.tools.evidence.replay import Fault, ReplayServer, Reply, Request

Resource = dict[str, Any]


# --- a small FHIR server on the replay server ------------------------------------------------------


@dataclass
class Chart:
    """Three Synthea adults; the first one's observations, their subject rewritten to ``Patient/id``."""

    patients: list[Resource]
    observations: list[Resource]

    @property
    def patient(self) -> Resource:
        return self.patients[0]


@pytest.fixture(scope="module")
def chart(shared_data: Path) -> Chart:
    paths = sorted((shared_data / "fhir" / "synthea-adults").glob("*.json"), key=lambda p: p.stat().st_size)[:3]
    patients: list[Resource] = []
    observations: list[Resource] = []
    for number, path in enumerate(paths):
        resources = [entry["resource"] for entry in json.loads(path.read_text(encoding="utf-8"))["entry"]]
        patient = next(r for r in resources if r["resourceType"] == "Patient")
        patients.append(patient)
        if number == 0:
            for resource in resources:
                if resource["resourceType"] == "Observation":
                    observations.append({**resource, "subject": {"reference": f"Patient/{patient['id']}"}})
    assert len(observations) > 200  # enough for three pages of 100
    return Chart(patients, observations)


def outcome(code: str, diagnostics: str, expression: str | None = None, severity: str = "error") -> Resource:
    issue: Resource = {"severity": severity, "code": code, "diagnostics": diagnostics}
    if expression:
        issue["expression"] = [expression]
    return {"resourceType": "OperationOutcome", "issue": [issue]}


def newest_first(observations: list[Resource]) -> list[Resource]:
    return sorted(observations, key=lambda o: o.get("effectiveDateTime", ""), reverse=True)


def header(request: Request, name: str) -> str | None:
    return {k.lower(): v for k, v in request.headers.items()}.get(name.lower())


@dataclass
class Ehr:
    """The server's behaviour: FHIR routes over ``chart``, and (when ``tokens`` is on) a SMART token desk."""

    server: ReplayServer
    chart: Chart
    tokens: bool = False  # FHIR routes want a token the desk issued
    expires_in: int = 3600
    issued: list[str] = field(default_factory=list)
    revoked: set[str] = field(default_factory=set)
    token_forms: list[dict[str, str]] = field(default_factory=list)
    check_client: Callable[[Request, dict[str, str]], str | None] = lambda request, form: None
    scope_denied: bool = False
    location_only: bool = False  # a create answered with Location alone, no body
    _serial: Iterator[int] = field(default_factory=itertools.count)

    @property
    def base(self) -> str:
        return f"{self.server.url}/fhir"

    @property
    def token_url(self) -> str:
        return f"{self.server.url}/auth/token"

    def install(self) -> None:
        route = self.server.route
        route("GET", "/fhir/Patient/", self.guarded(self.read_patient))
        route("GET", "/fhir/Observation", self.guarded(self.search_observations))
        route("POST", "/fhir/Observation", self.guarded(self.create_observation))
        route("PUT", "/fhir/Observation/", self.guarded(self.update_observation))
        route("POST", "/fhir", self.guarded(self.transaction))
        route("POST", "/auth/token", self.token)
        route(
            "GET",
            "/fhir/.well-known/smart-configuration",
            lambda r: Reply.of_json(
                {"token_endpoint": self.token_url, "grant_types_supported": ["client_credentials"]}
            ),
        )

    def guarded(self, responder: Callable[[Request], Reply]) -> Callable[[Request], Reply]:
        def answer(request: Request) -> Reply:
            if self.tokens:
                given = (header(request, "authorization") or "").removeprefix("Bearer ")
                if given not in self.issued or given in self.revoked:
                    return Reply.of_json(outcome("login", "Invalid or expired access token"), 401)
                if self.scope_denied:
                    return Reply.of_json(outcome("forbidden", "Scope does not permit this interaction"), 403)
            return responder(request)

        return answer

    def read_patient(self, request: Request) -> Reply:
        wanted = request.path.rsplit("/", 1)[-1]
        for patient in self.chart.patients:
            if patient["id"] == wanted:
                return Reply.of_json(patient)
        return Reply.of_json(outcome("not-found", f"Resource Patient/{wanted} is not known"), 404)

    def search_observations(self, request: Request) -> Reply:
        if "bogus" in request.query:
            return Reply.of_json(
                outcome("invalid", "Unknown search parameter 'bogus' for resource type 'Observation'"), 400
            )
        subject = (request.arg("patient") or "").removeprefix("Patient/")
        rows = [o for o in self.chart.observations if o["subject"]["reference"] == f"Patient/{subject}"]
        if request.arg("_sort") == "-date":
            rows = newest_first(rows)
        count, offset = int(request.arg("_count") or "50"), int(request.arg("_getpagesoffset") or "0")
        entries: list[Resource] = [
            {"fullUrl": f"{self.base}/Observation/{o['id']}", "resource": o, "search": {"mode": "match"}}
            for o in rows[offset : offset + count]
        ]
        if "Observation:patient" in request.query.get("_include", []):
            patient = next(p for p in self.chart.patients if p["id"] == subject)
            entries.append({"resource": patient, "search": {"mode": "include"}})
        links = [{"relation": "self", "url": f"{self.base}/Observation"}]
        if offset + count < len(rows):
            pairs = [(k, v) for k, vs in request.query.items() if k != "_getpagesoffset" for v in vs]
            query = urlencode([*pairs, ("_getpagesoffset", str(offset + count))])
            links.append({"relation": "next", "url": f"{self.base}/Observation?{query}"})
        bundle = {"resourceType": "Bundle", "type": "searchset", "total": len(rows), "link": links, "entry": entries}
        return Reply.of_json(bundle)

    def create_observation(self, request: Request) -> Reply:
        resource = request.json()
        if not resource.get("status"):
            problem = outcome(
                "required", "Observation.status: minimum required = 1, but only found 0", "Observation.status"
            )
            return Reply.of_json(problem, 422)
        new_id = f"obs-{next(self._serial)}"
        if self.location_only:
            return Reply(201, b"", headers={"Location": f"{self.base}/Observation/{new_id}/_history/1"})
        stored = {**resource, "id": new_id, "meta": {"versionId": "1"}}
        return Reply(
            201, json.dumps(stored).encode(), headers={"Location": f"{self.base}/Observation/{new_id}/_history/1"}
        )

    def update_observation(self, request: Request) -> Reply:
        if header(request, "if-match") not in (None, 'W/"1"'):
            return Reply.of_json(outcome("conflict", "Version 1 is not the current version (3)"), 412)
        resource = request.json()
        return Reply.of_json({**resource, "meta": {"versionId": "2"}})

    def transaction(self, request: Request) -> Reply:
        bundle = request.json()
        entries = [
            {"response": {"status": "201 Created", "location": f"{e['request']['url']}/{i}/_history/1"}}
            for i, e in enumerate(bundle["entry"])
        ]
        return Reply.of_json({"resourceType": "Bundle", "type": "transaction-response", "entry": entries})

    def token(self, request: Request) -> Reply:
        form = {k: v[0] for k, v in parse_qs(request.body.decode()).items()}
        self.token_forms.append(form)
        refused = self.check_client(request, form)
        if refused:
            return Reply.of_json({"error": refused, "error_description": "Client authentication failed"}, 401)
        value = f"tok-{len(self.issued) + 1}"
        self.issued.append(value)
        grant = {"access_token": value, "token_type": "bearer", "expires_in": self.expires_in, "scope": form["scope"]}
        return Reply.of_json(grant)


@pytest.fixture
def replay() -> Iterator[ReplayServer]:
    server = ReplayServer()
    # ReplayServer answers GET and POST; FHIR's update is a PUT. (replay.py could grow do_PUT itself.)
    server._httpd.RequestHandlerClass.do_PUT = lambda handler: server._handle(handler, "PUT")  # type: ignore[attr-defined]
    yield server
    server.close()


@pytest.fixture
def ehr(replay: ReplayServer, chart: Chart) -> Ehr:
    ehr = Ehr(replay, chart)
    ehr.install()
    return ehr


def client(ehr: Ehr, **values: Any) -> HttpFhirClient:
    config = FhirConfig.build(**{"base_url": ehr.base, "backoff_s": 0.01, "timeout_s": 2.0, **values})
    return HttpFhirClient(config)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# --- reading and paging -----------------------------------------------------------------------------


def test_a_read_returns_the_resource_as_stored(ehr: Ehr) -> None:
    patient = ehr.chart.patients[1]
    assert run(client(ehr).read("Patient", patient["id"])) == patient


def test_a_search_follows_next_links_over_three_pages(ehr: Ehr) -> None:
    patient = ehr.chart.patient
    fhir = client(ehr)
    result = run(
        fhir.search("Observation", {"patient": patient["id"]}, count=100, sort="-date", include=["Observation:patient"])
    )
    expected = newest_first(ehr.chart.observations)
    assert [o["id"] for o in result.matches] == [o["id"] for o in expected]
    assert result.matches == expected  # every element as in the bundle file
    assert result.pages == 3 and result.total == len(expected) and not result.truncated
    assert result.included == [patient]  # included on every page, kept once
    assert result.included_by_reference() == {f"Patient/{patient['id']}": patient}
    first, *later = ehr.server.calls("/fhir/Observation")
    assert first.query == {
        "patient": [patient["id"]],
        "_count": ["100"],
        "_sort": ["-date"],
        "_include": ["Observation:patient"],
    }
    assert [c.arg("_getpagesoffset") for c in later] == ["100", "200"]


def test_pages_arrive_one_at_a_time(ehr: Ehr) -> None:
    async def pages() -> list[tuple[int, int, bool]]:
        fhir = client(ehr)
        seen = []
        async for page in fhir.search_pages("Observation", {"patient": ehr.chart.patient["id"]}, count=120):
            seen.append((page.number, len(page.matches), page.next_url is not None))
        return seen

    n = len(ehr.chart.observations)
    assert run(pages()) == [(1, 120, True), (2, 120, True), (3, n - 240, False)]


def test_the_page_limit_and_the_cap_stop_early_and_say_so(ehr: Ehr) -> None:
    query = {"patient": ehr.chart.patient["id"]}
    limited = run(client(ehr, page_limit=2).search("Observation", query, count=100))
    assert (len(limited.matches), limited.pages, limited.truncated) == (200, 2, True)
    ehr.server.reset()
    capped = run(client(ehr).search("Observation", query, count=100, max_results=150))
    assert (len(capped.matches), capped.pages, capped.truncated) == (150, 2, True)
    assert len(ehr.server.calls("/fhir/Observation")) == 2  # the third page was never asked for


def test_a_next_link_to_another_server_is_not_followed(ehr: Ehr) -> None:
    def elsewhere(request: Request) -> Reply:
        link = {"relation": "next", "url": "http://attacker.example/fhir/Observation?page=2"}
        return Reply.of_json({"resourceType": "Bundle", "type": "searchset", "link": [link], "entry": []})

    ehr.server.routes.insert(0, ("GET", "/fhir/Observation", elsewhere))
    with pytest.raises(FhirServerError, match="attacker.example.*does not send credentials elsewhere"):
        run(client(ehr).search("Observation"))


# --- errors in words ----------------------------------------------------------------------------


def test_404_is_not_found_with_the_servers_words(ehr: Ehr) -> None:
    with pytest.raises(FhirNotFoundError) as caught:
        run(client(ehr).read("Patient", "no-such-patient"))
    assert isinstance(caught.value, NotFoundError) and caught.value.code == "NOT_FOUND"
    assert str(caught.value) == (
        f"Read Patient/no-such-patient failed: it is not on the FHIR server at {ehr.server.url.removeprefix('http://')} "
        "(HTTP 404): error (not-found): Resource Patient/no-such-patient is not known."
    )


def test_400_reads_out_the_operation_outcome(ehr: Ehr) -> None:
    with pytest.raises(FhirRejectedError) as caught:
        run(client(ehr).search("Observation", {"bogus": "1"}))
    assert caught.value.code == "VALIDATION_ERROR" and caught.value.status == 400
    assert "refused to search Observation (HTTP 400): error (invalid): Unknown search parameter 'bogus'" in str(
        caught.value
    )
    assert len(ehr.server.calls("/fhir/Observation")) == 1  # a 400 is not retried


def test_422_on_create_names_the_element(ehr: Ehr) -> None:
    with pytest.raises(FhirRejectedError) as caught:
        run(client(ehr).create({"resourceType": "Observation", "code": {"text": "HbA1c"}}))
    assert caught.value.status == 422
    assert caught.value.issues[0].expression == ("Observation.status",)
    assert "refused to create Observation (HTTP 422): error (required) at Observation.status: Observation.status:" in (
        str(caught.value)
    )


def test_bad_type_or_id_is_refused_before_sending(ehr: Ehr) -> None:
    fhir = client(ehr)
    with pytest.raises(Exception, match="is not a FHIR id"):
        run(fhir.read("Patient", "../metadata"))
    with pytest.raises(Exception, match="is not a FHIR resource type"):
        run(fhir.read("patient", "1"))
    assert ehr.server.calls() == []


def test_401_with_a_bearer_token_is_an_auth_error_naming_the_setting(ehr: Ehr) -> None:
    ehr.tokens = True
    with pytest.raises(FhirAuthError) as caught:
        run(client(ehr, auth="bearer", token="stale-token").read("Patient", ehr.chart.patient["id"]))
    assert caught.value.code == "CONFIG_ERROR" and caught.value.status == 401
    assert "refused Curbside's credentials when asked to read Patient/" in str(caught.value)
    assert "Invalid or expired access token" in str(caught.value) and "CURBSIDE_FHIR_TOKEN" in str(caught.value)
    assert header(ehr.server.calls("/fhir")[0], "authorization") == "Bearer stale-token"
    assert "stale-token" not in repr(client(ehr, auth="bearer", token="stale-token").config)


def test_401_without_credentials_says_how_to_configure_them(ehr: Ehr) -> None:
    ehr.tokens = True
    with pytest.raises(FhirAuthError, match="set CURBSIDE_FHIR_AUTH"):
        run(client(ehr).read("Patient", ehr.chart.patient["id"]))


# --- writes -------------------------------------------------------------------------------------


def test_create_update_and_transaction(ehr: Ehr) -> None:
    fhir = client(ehr)
    new = {"resourceType": "Observation", "status": "final", "code": {"text": "Heart rate"}}
    written = run(fhir.create(new))
    assert (written.id, written.version_id, written.resource) == (
        "obs-0",
        "1",
        {**new, "id": "obs-0", "meta": {"versionId": "1"}},
    )
    posted = ehr.server.calls("/fhir/Observation")[0]
    assert posted.json() == new and header(posted, "content-type") == "application/fhir+json; charset=utf-8"

    conditional = run(fhir.create(new, if_none_exist="identifier=x|1"))
    assert conditional.id == "obs-1" and conditional.version_id == "1"
    assert header(ehr.server.calls("/fhir/Observation")[1], "if-none-exist") == "identifier=x|1"

    updated = run(fhir.update({**new, "id": "obs-0"}, version_id="1"))
    assert (updated.id, updated.version_id) == ("obs-0", "2")
    with pytest.raises(FhirConflictError, match=r"its version changed since it was read \(HTTP 412\)"):
        run(fhir.update({**new, "id": "obs-0"}, version_id="0"))

    entries = [{"resource": r, "request": {"method": "POST", "url": r["resourceType"]}} for r in ehr.chart.patients]
    answer = run(fhir.transaction({"resourceType": "Bundle", "type": "transaction", "entry": entries}))
    assert answer["type"] == "transaction-response" and len(answer["entry"]) == 3
    assert ehr.server.calls("/fhir")[-1].json()["entry"][0]["resource"] == ehr.chart.patients[0]


def test_a_create_answered_by_location_only(ehr: Ehr) -> None:
    ehr.location_only = True
    written = run(client(ehr).create({"resourceType": "Observation", "status": "final"}))
    assert (written.id, written.version_id, written.resource) == ("obs-0", "1", None)


# --- SMART backend services -------------------------------------------------------------------------


def test_client_secret_basic_gets_a_token_and_reuses_it(ehr: Ehr) -> None:
    ehr.tokens = True

    def check(request: Request, form: dict[str, str]) -> str | None:
        basic = base64.b64decode((header(request, "authorization") or "").removeprefix("Basic ")).decode()
        return None if basic == "curbside:s%3Acret" else "invalid_client"

    ehr.check_client = check
    fhir = client(
        ehr, auth="client_secret_basic", token_url=ehr.token_url, client_id="curbside", client_secret="s:cret"
    )
    patient = ehr.chart.patient

    async def twice() -> None:
        assert await fhir.read("Patient", patient["id"]) == patient
        assert await fhir.read("Patient", patient["id"]) == patient

    run(twice())
    run(fhir.read("Patient", patient["id"]))  # another event loop, the same cached token
    assert ehr.issued == ["tok-1"] and fhir.stats.token_fetches == 1
    assert ehr.token_forms == [{"grant_type": "client_credentials", "scope": "system/*.read"}]
    assert {header(c, "authorization") for c in ehr.server.calls("/fhir")} == {"Bearer tok-1"}


def test_client_secret_post_and_a_refusal_naming_the_settings(ehr: Ehr) -> None:
    ehr.tokens = True
    ehr.check_client = lambda request, form: None if form.get("client_secret") == "right" else "invalid_client"
    settings = {"auth": "client_secret_post", "token_url": ehr.token_url, "client_id": "curbside"}
    run(client(ehr, **settings, client_secret="right").read("Patient", ehr.chart.patient["id"]))
    assert ehr.token_forms[0]["client_id"] == "curbside"
    with pytest.raises(FhirAuthError) as caught:
        run(client(ehr, **settings, client_secret="wrong").read("Patient", ehr.chart.patient["id"]))
    assert str(caught.value) == (
        f"The SMART token endpoint {ehr.token_url} refused Curbside (HTTP 401: invalid_client — Client authentication "
        "failed); check CURBSIDE_FHIR_CLIENT_ID ('curbside') and its secret against the client's registration."
    )


def _write_key(tmp_path: Path, algorithm: str) -> tuple[Path, Any]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    key: Any = (
        rsa.generate_private_key(public_exponent=65537, key_size=2048)
        if algorithm == "RS384"
        else ec.generate_private_key(ec.SECP384R1())
    )
    path = tmp_path / f"{algorithm}.pem"
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return path, key.public_key()


@pytest.mark.parametrize("algorithm", ["RS384", "ES384"])
def test_a_signed_jwt_assertion_the_server_verifies(ehr: Ehr, tmp_path: Path, algorithm: str) -> None:
    import jwt

    ehr.tokens = True
    path, public_key = _write_key(tmp_path, algorithm)
    claims_seen: list[dict[str, Any]] = []
    problems: list[str] = []  # an assertion failing in the server's thread would only drop the connection

    def verify(request: Request, form: dict[str, str]) -> str | None:
        try:
            assert form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
            assertion = form["client_assertion"]
            assert jwt.get_unverified_header(assertion) == {"alg": algorithm, "kid": "key-1", "typ": "JWT"}
            claims = jwt.decode(
                assertion,
                public_key,
                algorithms=[algorithm],
                audience=ehr.token_url,
                options={"require": ["iss", "sub", "aud", "exp", "jti"]},
            )
        except (AssertionError, KeyError, jwt.PyJWTError) as exc:
            problems.append(repr(exc))
            return "invalid_client"
        claims_seen.append(claims)
        return None

    ehr.check_client = verify
    ehr.expires_in = 1  # renewed a tenth of its lifetime before it expires
    fhir = client(
        ehr,
        auth="private_key_jwt",
        client_id="curbside-backend",
        private_key_path=path,
        key_id="key-1",
        scope="system/Patient.read system/Observation.read",
    )  # no token URL: found in the server's .well-known/smart-configuration
    patient_id = ehr.chart.patient["id"]

    async def reads(n: int) -> None:
        for _ in range(n):
            await fhir.read("Patient", patient_id)

    run(reads(3))
    assert problems == [] and ehr.issued == ["tok-1"]
    time.sleep(1.0)
    run(reads(1))
    assert ehr.issued == ["tok-1", "tok-2"]
    first, second = claims_seen
    now = time.time()
    for claims in claims_seen:
        assert claims["iss"] == claims["sub"] == "curbside-backend" and claims["aud"] == ehr.token_url
        assert now - 5 < claims["exp"] <= now + 300
    assert first["jti"] != second["jti"]
    assert ehr.token_forms[0]["scope"] == "system/Patient.read system/Observation.read"
    assert len(ehr.server.calls("/fhir/.well-known/smart-configuration")) == 1


def test_a_revoked_token_is_replaced_once(ehr: Ehr) -> None:
    ehr.tokens = True
    fhir = client(ehr, auth="client_secret_post", token_url=ehr.token_url, client_id="c", client_secret="s")
    patient_id = ehr.chart.patient["id"]
    run(fhir.read("Patient", patient_id))
    ehr.revoked.add("tok-1")
    assert run(fhir.read("Patient", patient_id))["id"] == patient_id
    assert ehr.issued == ["tok-1", "tok-2"]


def test_403_names_the_granted_scope(ehr: Ehr) -> None:
    ehr.tokens, ehr.scope_denied = True, True
    fhir = client(ehr, auth="client_secret_post", token_url=ehr.token_url, client_id="c", client_secret="s")
    with pytest.raises(FhirAuthError, match=r"does not allow Curbside to read Patient/.*scope is 'system/\*.read'"):
        run(fhir.read("Patient", ehr.chart.patient["id"]))


def test_a_key_smart_servers_refuse_is_reported_at_start(ehr: Ehr, tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = tmp_path / "p256.pem"
    path.write_bytes(
        ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    with pytest.raises(ConfigError, match="is on secp256r1; SMART's ES384 needs P-384"):
        client(ehr, auth="private_key_jwt", client_id="c", private_key_path=path, key_id="k")
    (tmp_path / "junk.pem").write_text("not a key")
    with pytest.raises(ConfigError, match="is not a PEM private key"):
        client(ehr, auth="private_key_jwt", client_id="c", private_key_path=tmp_path / "junk.pem", key_id="k")


# --- retries, timeouts, the circuit breaker ---------------------------------------------------------


def test_429_with_retry_after_is_honoured_then_succeeds(ehr: Ehr) -> None:
    ehr.server.fail_next("/fhir/Patient/", Fault("status", 429, retry_after="1"))
    fhir = client(ehr)
    began = time.perf_counter()
    assert run(fhir.read("Patient", ehr.chart.patient["id"])) == ehr.chart.patient
    assert time.perf_counter() - began >= 0.95
    assert (fhir.stats.sent, fhir.stats.retries, fhir.stats.waited_s) == (2, 1, 1.0)


def test_a_retry_after_longer_than_the_longest_wait_is_rate_limited_at_once(ehr: Ehr) -> None:
    ehr.server.fail_next("/fhir/Patient/", Fault("status", 429, retry_after="120"))
    with pytest.raises(RateLimitedError) as caught:
        run(client(ehr).read("Patient", ehr.chart.patient["id"]))
    assert caught.value.retry_after == 120 and "asks Curbside to wait for 120 s" in str(caught.value)
    assert len(ehr.server.calls("/fhir")) == 1


def test_503_then_success_even_for_a_create(ehr: Ehr) -> None:
    ehr.server.fail_next("/fhir/Patient/", Fault("status", 503))
    ehr.server.fail_next("/fhir/Observation", Fault("status", 503))
    fhir = client(ehr)
    assert run(fhir.read("Patient", ehr.chart.patient["id"]))["id"] == ehr.chart.patient["id"]
    # (the replay server runs its responder before a fault replaces the reply, so the id counter moved on)
    assert run(fhir.create({"resourceType": "Observation", "status": "final"})).id == "obs-1"
    assert fhir.stats.retries == 2 and len(ehr.server.calls("/fhir/Observation")) == 2


def test_a_500_on_a_create_is_not_sent_twice(ehr: Ehr) -> None:
    ehr.server.fail_next("/fhir/Observation", Fault("status", 500))
    with pytest.raises(FhirServerError, match=r"failed to create Observation \(HTTP 500\): injected; try again later"):
        run(client(ehr).create({"resourceType": "Observation", "status": "final"}))
    assert len(ehr.server.calls("/fhir/Observation")) == 1


def test_a_read_timeout_is_retried_and_a_write_timeout_is_not(ehr: Ehr) -> None:
    ehr.server.fail_next("/fhir/Patient/", Fault("delay", delay_s=0.6))
    fhir = client(ehr, timeout_s=0.3, retries=1)
    assert run(fhir.read("Patient", ehr.chart.patient["id"]))["id"] == ehr.chart.patient["id"]

    ehr.server.fail_next("/fhir/Observation", Fault("delay", delay_s=0.6))
    with pytest.raises(UpstreamError) as caught:
        run(fhir.create({"resourceType": "Observation", "status": "final"}))
    assert caught.value.code == "UPSTREAM_TIMEOUT"
    assert "did not answer in time" in str(caught.value) and "may or may not have been applied" in str(caught.value)
    assert len(ehr.server.calls("/fhir/Observation")) == 1


def test_a_failing_server_is_skipped_while_its_circuit_is_open(ehr: Ehr) -> None:
    ehr.server.fail_next("/fhir/Patient/", Fault("status", 500), Fault("status", 500))
    fhir = client(ehr, retries=0, breaker_failures=2)
    for _ in range(2):
        with pytest.raises(FhirServerError, match=r"HTTP 500"):
            run(fhir.read("Patient", ehr.chart.patient["id"]))
    with pytest.raises(UpstreamError) as caught:
        run(fhir.read("Patient", ehr.chart.patient["id"]))
    assert caught.value.code == "UPSTREAM_UNAVAILABLE" and "is being skipped" in str(caught.value)
    assert len(ehr.server.calls("/fhir")) == 2


def test_an_unreachable_server(tmp_path: Path) -> None:
    fhir = HttpFhirClient(FhirConfig.build(base_url="http://127.0.0.1:9/fhir", retries=1, backoff_s=0.01))
    with pytest.raises(UpstreamError) as caught:
        run(fhir.read("Patient", "1"))
    assert caught.value.code == "UPSTREAM_UNAVAILABLE" and "is CURBSIDE_FHIR_URL right?" in str(caught.value)
    assert fhir.stats.sent == 2  # a connection that never opened is safe to try again


# --- configuration ------------------------------------------------------------------------------


def test_config_from_settings_without_fhir_fields_is_off(tmp_path: Path) -> None:
    config = FhirConfig.from_settings(Settings(home=tmp_path / "home"))
    assert not config.enabled and config.auth is FhirAuthMode.NONE and config.page_limit == 10
    with pytest.raises(ConfigError, match="set CURBSIDE_FHIR_URL"):
        HttpFhirClient(config)


def test_config_from_settings_reads_the_fhir_fields() -> None:
    settings = SimpleNamespace(
        fhir_url="https://ehr.example/fhir/R4",
        fhir_auth="client-secret-basic",
        fhir_client_id="curbside",
        fhir_client_secret="s3cret",
        fhir_page_limit=3,
        outbound_backoff_s=0.1,
    )
    config = FhirConfig.from_settings(settings)
    assert config.auth is FhirAuthMode.CLIENT_SECRET_BASIC and config.page_limit == 3 and config.backoff_s == 0.1
    assert "s3cret" not in repr(config)


def test_incomplete_settings_are_named_together() -> None:
    with pytest.raises(ConfigError) as caught:
        FhirConfig.build(base_url="ehr.example/fhir", auth="private_key_jwt")
    message = str(caught.value)
    for setting in (
        "CURBSIDE_FHIR_URL='ehr.example/fhir'",
        "CURBSIDE_FHIR_CLIENT_ID",
        "CURBSIDE_FHIR_PRIVATE_KEY_PATH",
        "CURBSIDE_FHIR_KEY_ID",
    ):
        assert setting in message
    with pytest.raises(ConfigError, match="'smart' is not a FHIR auth mode; use one of 'none', 'bearer'"):
        FhirConfig.build(base_url="https://ehr.example/fhir", auth="smart")
