"""``FhirConfig``: where the clinic's FHIR server is, how Curbside signs in to it, and how patient
it is with it. Built from ``Settings`` (the ``CURBSIDE_FHIR_*`` variables) by ``from_settings``."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pydantic
from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

from curbside.errors import ConfigError

__all__ = ["FhirAuthMode", "FhirConfig"]


class FhirAuthMode(StrEnum):
    """How Curbside proves who it is to the FHIR server.

    ``none``: no credentials (the sandbox, a server on loopback). ``bearer``: a fixed access token.
    The other three are SMART backend services (client credentials grant) and differ in how the
    client authenticates at the token endpoint: HTTP Basic with its secret, the secret in the form,
    or a JWT signed with its private key (RS384 or ES384; SMART's preferred way).
    """

    NONE = "none"
    BEARER = "bearer"
    CLIENT_SECRET_BASIC = "client_secret_basic"
    CLIENT_SECRET_POST = "client_secret_post"
    PRIVATE_KEY_JWT = "private_key_jwt"

    @property
    def is_smart(self) -> bool:
        return self in (self.CLIENT_SECRET_BASIC, self.CLIENT_SECRET_POST, self.PRIVATE_KEY_JWT)

    @classmethod
    def from_str(cls, value: str) -> FhirAuthMode:
        try:
            return cls(value.strip().lower().replace("-", "_"))
        except ValueError:
            valid = ", ".join(repr(mode.value) for mode in cls)
            raise ConfigError(f"CURBSIDE_FHIR_AUTH={value!r} is not a FHIR auth mode; use one of {valid}.") from None


class FhirConfig(BaseModel):
    """Everything the FHIR client needs; secrets stay hidden in its repr."""

    model_config = ConfigDict(frozen=True)

    base_url: str | None = Field(None, description="The server's base, e.g. https://ehr.example/fhir/R4; None: off.")
    auth: FhirAuthMode = FhirAuthMode.NONE
    token: SecretStr | None = Field(None, description="The access token for auth 'bearer'.")
    token_url: str | None = Field(
        None, description="SMART token endpoint; None: read from BASE/.well-known/smart-configuration."
    )
    client_id: str | None = None
    client_secret: SecretStr | None = None
    private_key_path: Path | None = Field(None, description="PEM private key (RSA ≥ 2048 bits, or EC P-384).")
    key_id: str | None = Field(None, description="The key's 'kid' in the JWKS the server knows.")
    scope: str = "system/*.read"
    timeout_s: float = Field(10.0, gt=0)
    retries: int = Field(2, ge=0, le=5)
    backoff_s: float = Field(0.5, ge=0.0)
    max_wait_s: float = Field(20.0, ge=0.0)
    page_limit: int = Field(10, ge=1)
    max_response_bytes: int = Field(50 * 1024 * 1024, ge=1024)
    breaker_failures: int = Field(5, ge=1)
    breaker_open_s: float = Field(60.0, gt=0)

    @model_validator(mode="after")
    def _complete(self) -> FhirConfig:
        """Every missing or unusable setting, named together (one error, not one per fix)."""
        problems: list[str] = []
        for name, url in (("CURBSIDE_FHIR_URL", self.base_url), ("CURBSIDE_FHIR_TOKEN_URL", self.token_url)):
            if url is not None:
                parts = urlsplit(url)
                if parts.scheme not in ("http", "https") or not parts.netloc:
                    problems.append(f"{name}={url!r} is not an http(s) address")
        if self.auth is FhirAuthMode.BEARER and not _secret(self.token):
            problems.append("auth 'bearer' needs CURBSIDE_FHIR_TOKEN")
        if self.auth.is_smart and not self.client_id:
            problems.append(f"auth {self.auth.value!r} needs CURBSIDE_FHIR_CLIENT_ID")
        if self.auth in (FhirAuthMode.CLIENT_SECRET_BASIC, FhirAuthMode.CLIENT_SECRET_POST) and not _secret(
            self.client_secret
        ):
            problems.append(f"auth {self.auth.value!r} needs CURBSIDE_FHIR_CLIENT_SECRET")
        if self.auth is FhirAuthMode.PRIVATE_KEY_JWT:
            if self.private_key_path is None:
                problems.append("auth 'private_key_jwt' needs CURBSIDE_FHIR_PRIVATE_KEY_PATH")
            if not self.key_id:
                problems.append("auth 'private_key_jwt' needs CURBSIDE_FHIR_KEY_ID (SMART requires the 'kid')")
        if problems:
            raise ValueError("; ".join(problems) + ".")
        return self

    @property
    def enabled(self) -> bool:
        return self.base_url is not None

    @classmethod
    def build(cls, **values: Any) -> FhirConfig:
        """``FhirConfig(**values)``, with invalid values reported as one ``ConfigError``."""
        if isinstance(values.get("auth"), str):
            values["auth"] = FhirAuthMode.from_str(values["auth"])
        try:
            return cls(**values)
        except pydantic.ValidationError as exc:
            said = "; ".join(
                str(error["msg"]).removeprefix("Value error, ")
                + (f" ({'.'.join(map(str, error['loc']))})" if error["loc"] else "")
                for error in exc.errors()
            )
            raise ConfigError(f"The FHIR settings are incomplete: {said}") from None

    @classmethod
    def from_settings(cls, settings: object) -> FhirConfig:
        """The ``fhir_*`` fields of ``settings``; a field ``Settings`` does not have yet takes its default.

        Backoff, the longest honoured Retry-After and the circuit breaker follow the outbound
        client's settings (``outbound_*``), so every outside call is patient in the same way.
        """

        def pick(name: str, default: Any) -> Any:
            value = getattr(settings, name, None)
            return default if value is None else value

        return cls.build(
            base_url=pick("fhir_url", None),
            auth=pick("fhir_auth", FhirAuthMode.NONE),
            token=pick("fhir_token", None),
            token_url=pick("fhir_token_url", None),
            client_id=pick("fhir_client_id", None),
            client_secret=pick("fhir_client_secret", None),
            private_key_path=pick("fhir_private_key_path", None),
            key_id=pick("fhir_key_id", None),
            scope=pick("fhir_scope", "system/*.read"),
            timeout_s=pick("fhir_timeout_s", 10.0),
            retries=pick("fhir_retries", pick("outbound_retries", 2)),
            backoff_s=pick("outbound_backoff_s", 0.5),
            max_wait_s=pick("outbound_max_wait_s", 20.0),
            page_limit=pick("fhir_page_limit", 10),
            max_response_bytes=pick("fhir_max_response_bytes", 50 * 1024 * 1024),
            breaker_failures=pick("outbound_breaker_failures", 5),
            breaker_open_s=pick("outbound_breaker_open_s", 60.0),
        )


def _secret(value: SecretStr | None) -> str:
    return value.get_secret_value() if value is not None else ""
