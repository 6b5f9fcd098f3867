"""The signed JWT a SMART backend-services client presents at the token endpoint
(``private_key_jwt``; SMART App Launch 2.x, "Backend Services", and RFC 7523).

The key decides the algorithm: an RSA key (2048 bits or more) signs RS384, an EC key on P-384
signs ES384 — the two SMART requires servers to support. The header carries ``kid`` (and
``typ: JWT``); the claims are ``iss`` = ``sub`` = the client id, ``aud`` = the token endpoint,
``exp`` at most five minutes ahead, and a fresh ``jti``. PyJWT and cryptography are imported
only when a key is loaded, so the CLI starts fast without them.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curbside.errors import ConfigError

__all__ = ["ASSERTION_TYPE", "SigningKey", "client_assertion", "load_signing_key"]

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
_LIFETIME_S = 300  # SMART: "no more than five minutes in the future"
_INSTALL = "pip install 'pyjwt[crypto]'"


@dataclass(frozen=True, repr=False)
class SigningKey:
    """A loaded private key and the algorithm it signs with; its repr shows no key material."""

    key: Any  # a cryptography RSAPrivateKey or EllipticCurvePrivateKey
    algorithm: str  # "RS384" or "ES384"
    path: Path

    def __repr__(self) -> str:
        return f"SigningKey(algorithm={self.algorithm!r}, path={str(self.path)!r})"


def load_signing_key(path: Path) -> SigningKey:
    """The PEM private key at ``path``, checked to be one SMART servers accept."""
    try:
        from cryptography.hazmat.primitives.asymmetric import ec, rsa
        from cryptography.hazmat.primitives.serialization import load_pem_private_key
    except ImportError:
        raise ConfigError(
            f"FHIR auth 'private_key_jwt' signs with the 'cryptography' package, which is not installed: {_INSTALL}."
        ) from None
    try:
        pem = path.read_bytes()
    except OSError as exc:
        raise ConfigError(
            f"Cannot read the FHIR private key {str(path)!r} ({exc.strerror or type(exc).__name__}); "
            "check CURBSIDE_FHIR_PRIVATE_KEY_PATH."
        ) from None
    try:
        key = load_pem_private_key(pem, password=None)
    except TypeError:
        raise ConfigError(
            f"The FHIR private key {str(path)!r} is encrypted; give Curbside an unencrypted PEM key "
            "(readable by its own user only)."
        ) from None
    except ValueError:
        raise ConfigError(
            f"{str(path)!r} is not a PEM private key (CURBSIDE_FHIR_PRIVATE_KEY_PATH); expected "
            "'-----BEGIN PRIVATE KEY-----' (PKCS#8) or an RSA/EC PEM key."
        ) from None
    if isinstance(key, rsa.RSAPrivateKey):
        if key.key_size < 2048:
            raise ConfigError(f"The FHIR RSA key {str(path)!r} has {key.key_size} bits; SMART needs 2048 or more.")
        return SigningKey(key, "RS384", path)
    if isinstance(key, ec.EllipticCurvePrivateKey):
        if not isinstance(key.curve, ec.SECP384R1):
            raise ConfigError(
                f"The FHIR EC key {str(path)!r} is on {key.curve.name}; SMART's ES384 needs P-384 (secp384r1)."
            )
        return SigningKey(key, "ES384", path)
    raise ConfigError(
        f"The FHIR key {str(path)!r} is a {type(key).__name__}; SMART signs with RSA (RS384) or EC P-384 (ES384)."
    )


def client_assertion(
    signing_key: SigningKey,
    *,
    client_id: str,
    token_url: str,
    key_id: str,
    now: float | None = None,
    lifetime_s: int = _LIFETIME_S,
) -> str:
    """A fresh, signed client assertion for one token request."""
    try:
        import jwt
    except ImportError:
        raise ConfigError(
            f"FHIR auth 'private_key_jwt' signs its assertion with PyJWT, which is not installed: {_INSTALL}."
        ) from None
    issued = int(now if now is not None else time.time())
    claims = {
        "iss": client_id,
        "sub": client_id,
        "aud": token_url,
        "exp": issued + min(lifetime_s, _LIFETIME_S),
        "iat": issued,
        "jti": uuid.uuid4().hex,
    }
    headers = {"kid": key_id, "typ": "JWT"}
    return jwt.encode(claims, signing_key.key, algorithm=signing_key.algorithm, headers=headers)
