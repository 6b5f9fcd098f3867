"""Credentials for the FHIR server: none, a fixed bearer token, or SMART backend services.

SMART backend services (client credentials grant): Curbside asks the token endpoint for an access
token — authenticating with its secret (``client_secret_basic`` / ``client_secret_post``) or a
JWT signed with its private key (``private_key_jwt``) — and reuses the token until shortly before
it expires. A token the server refuses (401) is dropped, and the next request fetches a fresh
one. The token endpoint comes from ``CURBSIDE_FHIR_TOKEN_URL`` or the server's
``.well-known/smart-configuration``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from curbside.errors import ConfigError
from curbside.tools.ehr.fhir_assertion import ASSERTION_TYPE, SigningKey, client_assertion, load_signing_key
from curbside.tools.ehr.fhir_config import FhirAuthMode, FhirConfig
from curbside.tools.ehr.fhir_errors import FhirAuthError, FhirServerError, error_for_status
from curbside.tools.ehr.fhir_http import FhirHttp

__all__ = ["BearerAuth", "FhirAuth", "NoAuth", "SmartBackendAuth", "auth_for"]

_DEFAULT_LIFETIME_S = 300.0  # a token response without expires_in: assume SMART's usual five minutes
_MARGIN_S = 60.0  # renew this long before expiry at most (a tenth of the lifetime for short tokens)


class FhirAuth:
    """What puts credentials on a request. This base sends none."""

    mode = FhirAuthMode.NONE
    refreshable = False  # may a refused token be replaced by a fresh one?

    async def authorization(self) -> str | None:
        """The ``Authorization`` header value for the next request (None: no header)."""
        return None

    def invalidate(self) -> None:
        """The server refused the current credentials: fetch new ones next time, if that is possible."""

    def hint(self, status: int) -> str:
        """What to check when the server answers ``status`` (401 or 403) to these credentials."""
        return (
            "It wants credentials: set CURBSIDE_FHIR_AUTH ('bearer' with CURBSIDE_FHIR_TOKEN, or a SMART "
            "backend-services mode with CURBSIDE_FHIR_CLIENT_ID and its secret or key)."
        )


class NoAuth(FhirAuth):
    """No credentials: the sandbox, or a server on loopback behind the clinic's own network controls."""


class BearerAuth(FhirAuth):
    mode = FhirAuthMode.BEARER

    def __init__(self, token: str) -> None:
        self._token = token

    async def authorization(self) -> str | None:
        return f"Bearer {self._token}"

    def hint(self, status: int) -> str:
        if status == 403:
            return "The token in CURBSIDE_FHIR_TOKEN lacks the permission; ask for one whose scope allows this."
        return "Check CURBSIDE_FHIR_TOKEN: it may have expired or been revoked."

    def __repr__(self) -> str:
        return "BearerAuth(token=**********)"


@dataclass(frozen=True)
class _Token:
    value: str
    renew_at: float  # monotonic seconds
    scope: str


class SmartBackendAuth(FhirAuth):
    """SMART backend services: an access token from the token endpoint, cached until shortly before expiry."""

    refreshable = True

    def __init__(self, config: FhirConfig, http: FhirHttp, *, clock: Callable[[], float] = time.monotonic) -> None:
        if not config.auth.is_smart or not config.client_id or config.base_url is None:
            raise ConfigError(f"SmartBackendAuth needs a SMART auth mode and a client id, not {config.auth.value!r}.")
        self.mode = config.auth
        self._config = config
        self._client_id = config.client_id
        self._http = http
        self._clock = clock
        self._token: _Token | None = None
        self._token_url = config.token_url
        self._signing_key: SigningKey | None = None
        if config.auth is FhirAuthMode.PRIVATE_KEY_JWT and config.private_key_path is not None:
            self._signing_key = load_signing_key(config.private_key_path)  # a bad key fails at start, not mid-consult
        self._guard = threading.Lock()
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()

    async def authorization(self) -> str | None:
        token = self._current()
        if token is None:
            async with self._loop_lock():
                token = self._current()  # another request may have fetched it while this one waited
                if token is None:
                    token = await self._fetch()
                    self._token = token
        return f"Bearer {token.value}"

    def invalidate(self) -> None:
        self._token = None

    def hint(self, status: int) -> str:
        if status == 403:
            granted = self._token.scope if self._token is not None and self._token.scope else self._config.scope
            return (
                f"The access token's scope is {granted!r} (CURBSIDE_FHIR_SCOPE); ask for one that allows this "
                "(e.g. 'system/*.read system/*.write', or SMART v2 'system/*.cruds') and have the server grant it."
            )
        return (
            f"A fresh access token for client {self._client_id!r} was refused too; check the client's "
            "registration on the server (CURBSIDE_FHIR_CLIENT_ID and its secret or key)."
        )

    def __repr__(self) -> str:
        return f"SmartBackendAuth(mode={self.mode.value!r}, client_id={self._client_id!r})"

    # --- fetching a token -------------------------------------------------------------------

    def _current(self) -> _Token | None:
        token = self._token
        return token if token is not None and self._clock() < token.renew_at else None

    def _loop_lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        with self._guard:
            lock = self._locks.get(loop)
            if lock is None:
                lock = self._locks[loop] = asyncio.Lock()
            return lock

    async def _fetch(self) -> _Token:
        token_url = await self._endpoint()
        form = {"grant_type": "client_credentials", "scope": self._config.scope}
        headers = {"Accept": "application/json"}
        if self.mode is FhirAuthMode.CLIENT_SECRET_BASIC:
            headers["Authorization"] = _basic(self._client_id, self._secret())
        elif self.mode is FhirAuthMode.CLIENT_SECRET_POST:
            form |= {"client_id": self._client_id, "client_secret": self._secret()}
        else:
            assert self._signing_key is not None and self._config.key_id is not None  # checked by FhirConfig
            form |= {
                "client_assertion_type": ASSERTION_TYPE,
                "client_assertion": client_assertion(
                    self._signing_key, client_id=self._client_id, token_url=token_url, key_id=self._config.key_id
                ),
            }
        began = self._clock()
        self._http.stats.token_fetches += 1
        answer = await self._http.exchange(
            "POST", token_url, form=form, headers=headers, what="the SMART token endpoint", repeatable=True
        )  # asking for a token twice does no harm
        if answer.status != 200:
            raise self._refusal(answer.status, answer.body, token_url, answer.retry_after, answer.attempts)
        data = _json_object(answer.body, token_url)
        value = data.get("access_token")
        token_type = str(data.get("token_type") or "bearer")
        if not isinstance(value, str) or not value or token_type.lower() != "bearer":
            raise FhirServerError(
                f"The SMART token endpoint {token_url} answered without a bearer access token "
                f"(token_type {token_type!r}); check CURBSIDE_FHIR_TOKEN_URL.",
                status=answer.status,
            )
        lifetime = _seconds(data.get("expires_in"))
        margin = min(_MARGIN_S, lifetime / 10)
        return _Token(value, began + lifetime - margin, str(data.get("scope") or ""))

    async def _endpoint(self) -> str:
        """The token endpoint: the setting, or the server's SMART configuration (read once)."""
        if self._token_url is not None:
            return self._token_url
        assert self._config.base_url is not None
        where = self._config.base_url.rstrip("/") + "/.well-known/smart-configuration"
        answer = await self._http.exchange(
            "GET", where, headers={"Accept": "application/json"}, what="the FHIR server's SMART configuration"
        )
        endpoint = _json_object(answer.body, where).get("token_endpoint") if answer.status == 200 else None
        if not isinstance(endpoint, str) or urlsplit(endpoint).scheme not in ("http", "https"):
            raise ConfigError(
                f"The FHIR server names no token endpoint at {where} (HTTP {answer.status}); "
                "set CURBSIDE_FHIR_TOKEN_URL."
            )
        self._token_url = endpoint
        return endpoint

    def _secret(self) -> str:
        secret = self._config.client_secret
        assert secret is not None  # checked by FhirConfig
        return secret.get_secret_value()

    def _refusal(self, status: int, body: bytes, token_url: str, retry_after: float | None, attempts: int) -> Exception:
        """The token endpoint said no: OAuth's ``error`` names why (RFC 6749 §5.2)."""
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            data = None
        error = str(data.get("error") or "") if isinstance(data, dict) else ""
        if status in (400, 401, 403) and error:
            described = str(data.get("error_description") or "") if isinstance(data, dict) else ""
            said = error + (f" — {described[:200]}" if described else "")
            fix = {
                "invalid_client": (
                    f"check CURBSIDE_FHIR_CLIENT_ID ({self._client_id!r}) and its "
                    + ("key (CURBSIDE_FHIR_PRIVATE_KEY_PATH, CURBSIDE_FHIR_KEY_ID)" if self._signing_key else "secret")
                    + " against the client's registration"
                ),
                "invalid_scope": f"the server will not grant {self._config.scope!r}; change CURBSIDE_FHIR_SCOPE",
                "unauthorized_client": "the client may not use the client-credentials grant; check its registration",
            }.get(error, f"check the client's registration and CURBSIDE_FHIR_AUTH ({self.mode.value!r})")
            return FhirAuthError(
                f"The SMART token endpoint {token_url} refused Curbside (HTTP {status}: {said}); {fix}.", status=status
            )
        return error_for_status(
            status,
            body,
            action="issue an access token",
            server=f"the SMART token endpoint {token_url}",
            auth_hint="Check CURBSIDE_FHIR_TOKEN_URL and the client's registration.",
            retry_after=retry_after,
            attempts=attempts,
        )


def auth_for(config: FhirConfig, http: FhirHttp) -> FhirAuth:
    """The credentials ``config`` describes."""
    if config.auth is FhirAuthMode.NONE:
        return NoAuth()
    if config.auth is FhirAuthMode.BEARER:
        assert config.token is not None  # checked by FhirConfig
        return BearerAuth(config.token.get_secret_value())
    return SmartBackendAuth(config, http)


def _basic(client_id: str, secret: str) -> str:
    """RFC 6749 §2.3.1: both parts form-encoded before base64 (a ':' in the secret must survive)."""
    pair = f"{quote(client_id, safe='')}:{quote(secret, safe='')}".encode()
    return "Basic " + base64.b64encode(pair).decode("ascii")


def _json_object(body: bytes, where: str) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict):
        raise FhirServerError(f"{where} answered with something that is not a JSON object.", status=200)
    return data


def _seconds(value: Any) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return _DEFAULT_LIFETIME_S
    return seconds if seconds > 0 else _DEFAULT_LIFETIME_S
