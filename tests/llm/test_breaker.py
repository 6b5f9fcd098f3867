from __future__ import annotations

from curbside.llm.breaker import CircuitBreaker


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_opens_after_consecutive_failures_and_lets_one_trial_through_later() -> None:
    clock = Clock()
    breaker = CircuitBreaker(failure_threshold=3, open_seconds=60, clock=clock)
    for _ in range(2):
        assert breaker.allow()
        breaker.record_failure()
    assert breaker.state == "closed"
    assert breaker.allow()
    breaker.record_failure()
    assert breaker.state == "open" and not breaker.allow()
    clock.now += 30
    assert not breaker.allow() and breaker.retry_in() == 30
    clock.now += 30
    assert breaker.state == "half-open"
    assert breaker.allow()  # the one trial
    assert not breaker.allow()  # no second call while the trial runs
    breaker.record_success()
    assert breaker.state == "closed" and breaker.allow() and breaker.consecutive_failures == 0


def test_a_failed_trial_opens_again_for_the_full_period() -> None:
    clock = Clock()
    breaker = CircuitBreaker(failure_threshold=1, open_seconds=10, clock=clock)
    breaker.record_failure()
    clock.now += 10
    assert breaker.allow()
    breaker.record_failure()
    assert breaker.state == "open" and breaker.retry_in() == 10


def test_a_success_resets_the_count() -> None:
    breaker = CircuitBreaker(failure_threshold=2)
    breaker.record_failure()
    breaker.record_success()
    breaker.record_failure()
    assert breaker.state == "closed"


def test_an_abandoned_trial_frees_the_slot_without_a_verdict() -> None:
    clock = Clock()
    breaker = CircuitBreaker(failure_threshold=1, open_seconds=5, clock=clock)
    breaker.record_failure()
    clock.now += 5
    assert breaker.allow()
    breaker.abandon()
    assert breaker.state == "half-open" and breaker.allow()
