"""Rate limits through the ``limits`` library: moving windows per user (and per tool).

Counters live in the storage named by ``CURBSIDE_RATE_LIMIT_STORAGE``: ``memory://``
counts per process; ``redis://host:6379`` shares them between server processes
(install ``redis``). A moving window is exact: no burst of twice the limit at a
window's edge, as a fixed window would allow.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from curbside.errors import ConfigError, RateLimitedError, UpstreamError

if TYPE_CHECKING:
    from limits import RateLimitItem

    from curbside.settings import Settings

__all__ = ["RateLimiter"]


class RateLimiter:
    """``hit(limit, *key)`` counts one event against ``limit`` for ``key``, or raises ``RateLimitedError``."""

    def __init__(
        self, storage_uri: str = "memory://", *, api_limit: str | None = None, failure_limit: str | None = None
    ) -> None:
        from limits import parse_many, storage, strategies
        from limits.errors import ConfigurationError

        try:
            self._storage = storage.storage_from_string(storage_uri)
        except ConfigurationError as exc:
            raise ConfigError(
                f"CURBSIDE_RATE_LIMIT_STORAGE={storage_uri!r} cannot be used: {exc}. "
                "Use memory:// or a redis:// URI (with the redis package installed)."
            ) from exc
        self._limiter = strategies.MovingWindowRateLimiter(self._storage)
        self._api_limits: list[RateLimitItem] = parse_many(api_limit) if api_limit else []
        self._failure_limits: list[RateLimitItem] = parse_many(failure_limit) if failure_limit else []
        self.storage_uri = storage_uri

    @classmethod
    def from_settings(cls, settings: Settings) -> RateLimiter:
        return cls(settings.rate_limit_storage, api_limit=settings.rate_limit, failure_limit=settings.auth_failure_limit)

    def check_failures(self, client: str) -> None:
        """Refuse ``client`` (an address) outright once its wrong keys used up ``CURBSIDE_AUTH_FAILURE_LIMIT``."""
        for item in self._failure_limits:
            try:
                allowed = self._limiter.test(item, "auth-failure", client)
            except Exception as exc:  # the store is down: as in _hit, refuse rather than admit unlimited guesses
                raise self._store_down(exc) from exc
            if not allowed:
                stats = self._limiter.get_window_stats(item, "auth-failure", client)
                retry_after = max(stats.reset_time - time.time(), 0.0)
                raise RateLimitedError(
                    f"Too many requests with a missing or wrong API key from this address ({item.amount} per "
                    f"{_window(item)}). Try again in {retry_after:.0f} s with a valid key.",
                    retry_after=round(retry_after, 3),
                )

    def hit_failure(self, client: str) -> None:
        """Count one request from ``client`` that had no valid key."""
        for item in self._failure_limits:
            try:
                self._limiter.hit(item, "auth-failure", client)
            except Exception as exc:  # noqa: BLE001 - the refusal stands; the count is lost with the store
                raise self._store_down(exc) from exc

    def hit_api(self, user: str) -> None:
        """One HTTP or MCP request by ``user`` against ``CURBSIDE_RATE_LIMIT``."""
        for item in self._api_limits:
            self._hit(item, ("api", user), f"Rate limit reached: {item.amount} requests per {_window(item)} per user.")

    def hit_per_minute(self, per_minute: int, *key: str, what: str) -> None:
        """One event against ``per_minute`` per minute for ``key``; ``what`` names the limit in the message."""
        from limits import RateLimitItemPerMinute

        self._hit(RateLimitItemPerMinute(per_minute), key, f"Rate limit reached for {what}: {per_minute} per minute.")

    def _hit(self, item: RateLimitItem, key: tuple[str, ...], message: str) -> None:
        try:
            allowed = self._limiter.hit(item, *key)
            if allowed:
                return
            stats = self._limiter.get_window_stats(item, *key)
        except Exception as exc:
            # the limiter's store (e.g. Redis) is down: refuse rather than let requests through unlimited
            raise self._store_down(exc) from exc
        retry_after = max(stats.reset_time - time.time(), 0.0)
        raise RateLimitedError(f"{message} Try again in {retry_after:.0f} s.", retry_after=round(retry_after, 3))

    def _store_down(self, exc: Exception) -> UpstreamError:
        return UpstreamError(
            f"The rate-limit store {self.storage_uri!r} is not answering ({type(exc).__name__}); "
            "requests are refused until it is back."
        )

    def reset(self) -> None:
        """Forget every counter (tests, or an administrator clearing a lockout)."""
        self._storage.reset()

    def __repr__(self) -> str:
        api = ";".join(f"{i.amount}/{_window(i)}" for i in self._api_limits) or "none"
        return f"RateLimiter(storage={self.storage_uri!r}, api={api!r})"


def _window(item: RateLimitItem) -> str:
    name = item.GRANULARITY.name
    return name if item.multiples == 1 else f"{item.multiples} {name}s"
