"""What one turn may spend: model calls by route, seconds by route, and the tokens and cost it used.

The call budget is the reference design's table (agent-decision-tree.md, "LLM Call Budget by Route"):
direct 2, lookup 3, reasoning 5, multi-step 3 + 3N for N subtasks (N ≤ 5). The seconds per route are
settings (``CURBSIDE_TURN_TIME_BUDGET_S``). Tokens are what the server reported; where it reported none
they are estimated at four characters a token, and the usage says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from curbside.agent.models import TurnUsage
from curbside.errors import UpstreamError

__all__ = ["MAX_SUBTASKS", "MODEL_RESERVE", "TurnBudget", "max_llm_calls", "within"]

MAX_SUBTASKS = 5
_CALLS = {"direct": 2, "lookup": 3, "reasoning": 5}
_CHARS_PER_TOKEN = 4  # a rough rule for English text; used only when the server reports no counts
MODEL_RESERVE = 0.25  # of a route's seconds kept for its tools and its answer, whatever the model takes
MIN_MODEL_SECONDS = 1.0  # less than this left: no model call is started


@contextlib.asynccontextmanager
async def within(seconds: float, what: str) -> AsyncIterator[None]:
    """A model call cut at ``seconds``: past it, an UPSTREAM_TIMEOUT naming the route's time budget."""
    try:
        async with asyncio.timeout(max(seconds, 0.0)):
            yield
    except TimeoutError:
        raise UpstreamError(
            f"{what} was stopped at the route's time budget ({seconds:.1f} s were left for it)",
            code="UPSTREAM_TIMEOUT",
        ) from None


def max_llm_calls(route: str, subtasks: int = 1) -> int:
    """The most model calls a turn on ``route`` may make (multi-step: 3 + 3 per subtask, subtasks ≤ 5)."""
    if route == "multi_step":
        return 3 + 3 * max(1, min(subtasks, MAX_SUBTASKS))
    return _CALLS.get(route, 2)


@dataclass
class TurnBudget:
    """One turn's allowance and spending; ``refusal()`` says why a further model call may not start."""

    route: str
    seconds: float
    max_calls: int
    began: float = field(default_factory=time.monotonic)
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    estimated: bool = False
    endpoints: set[str] = field(default_factory=set)
    spent_before: float = 0.0  # the user's spending earlier today
    daily_limit: float | None = None

    @classmethod
    def for_route(
        cls,
        route: str,
        seconds_by_route: dict[str, float],
        *,
        subtasks: int = 1,
        spent_before: float = 0.0,
        daily_limit: float | None = None,
    ) -> TurnBudget:
        return cls(
            route=route,
            seconds=seconds_by_route.get(route, 30.0),
            max_calls=max_llm_calls(route, subtasks),
            spent_before=spent_before,
            daily_limit=daily_limit,
        )

    def reroute(self, route: str, seconds_by_route: dict[str, float], subtasks: int = 1) -> None:
        """The route changed (a model broke a tie): the new route's allowance, the clock and spending kept."""
        self.route = route
        self.seconds = seconds_by_route.get(route, self.seconds)
        self.max_calls = max_llm_calls(route, subtasks)

    def elapsed(self) -> float:
        return time.monotonic() - self.began

    def out_of_time(self) -> bool:
        return self.elapsed() >= self.seconds

    def model_seconds_left(self) -> float:
        """Seconds a model call may still take: the route's time less a reserve for the tools and the
        answer, so a slow model never leaves the turn without the answer its tools can give."""
        return self.seconds * (1 - MODEL_RESERVE) - self.elapsed()

    def refusal(self) -> str | None:
        """Why another model call may not start, or None when it may."""
        if self.calls >= self.max_calls:
            return f"the {self.route} route's budget of {self.max_calls} model calls is spent"
        if self.model_seconds_left() < MIN_MODEL_SECONDS:
            return f"the {self.route} route's {self.seconds:g} s leave no time for a model call"
        if self.daily_limit is not None and self.spent_before + self.cost >= self.daily_limit:
            return f"your daily model budget ({self.daily_limit:g}) is spent"
        return None

    def charge(
        self,
        endpoint: str,
        *,
        prompt_tokens: int | None,
        completion_tokens: int | None,
        prompt_chars: int,
        completion_chars: int,
        price_prompt_per_1k: float,
        price_completion_per_1k: float,
    ) -> None:
        """Count one model call: its tokens (estimated from characters where none were reported) and cost."""
        if prompt_tokens is None or completion_tokens is None:
            self.estimated = True
        prompt = prompt_tokens if prompt_tokens is not None else -(-prompt_chars // _CHARS_PER_TOKEN)
        completion = completion_tokens if completion_tokens is not None else -(-completion_chars // _CHARS_PER_TOKEN)
        self.calls += 1
        self.endpoints.add(endpoint)
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.cost += prompt / 1000 * price_prompt_per_1k + completion / 1000 * price_completion_per_1k

    def usage(self) -> TurnUsage:
        return TurnUsage(
            llm_calls=self.calls,
            max_llm_calls=self.max_calls,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            tokens_estimated=self.estimated,
            cost=round(self.cost, 6),
            seconds=round(self.elapsed(), 3),
            time_budget_s=self.seconds,
        )
