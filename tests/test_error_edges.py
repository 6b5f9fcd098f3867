"""Every stable error code has one HTTP status and one exit code, mapped once at each edge."""

from __future__ import annotations

import pytest

import curbside.errors as errors
from curbside.cli._exit import EXIT_CODES, exit_code_for
from curbside.errors import CurbsideError
from curbside.http_errors import HTTP_STATUS, error_response, http_status_for


def every_error_class() -> list[type[CurbsideError]]:
    found, pending = [], [CurbsideError]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


CODES = {cls.code for cls in every_error_class()} | {
    "UPSTREAM_TIMEOUT", "UPSTREAM_UNAVAILABLE", "JOB_TIMEOUT", "INTERRUPTED",  # set per instance
    "TIMEOUT", "CONFIRMATION_REQUIRED", "CONFIRMATION_DENIED", "CONFIRMATION_EXPIRED",  # the executor's outcomes
}


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_has_a_status_and_an_exit_code(code: str) -> None:
    assert code in HTTP_STATUS and code in EXIT_CODES


# the exit codes the CLI has always had (README "Use"): a change here breaks scripts
@pytest.mark.parametrize(
    ("cls", "exit_code", "status"),
    [
        (errors.ValidationError, 2, 400),
        (errors.NotFoundError, 2, 404),
        (errors.UnauthenticatedError, 2, 401),
        (errors.PermissionDeniedError, 2, 403),
        (errors.RateLimitedError, 2, 429),
        (errors.FileTooLargeError, 2, 413),
        (errors.UnsupportedFormatError, 2, 415),
        (errors.ToolRetry, 2, 422),
        (errors.InvalidTransitionError, 3, 409),
        (errors.RetryLimitError, 3, 409),
        (errors.JobStoppedError, 3, 409),
        (errors.ConfigError, 4, 503),
        (errors.NotLoadedError, 4, 503),
        (errors.PhiDetectorError, 4, 500),
        (errors.UpstreamError, 5, 502),
        (errors.AuditIntegrityError, 6, 503),
    ],
)
def test_each_error_kind_keeps_its_exit_code_and_status(cls: type[CurbsideError], exit_code: int, status: int) -> None:
    assert exit_code_for(cls.code) == exit_code and http_status_for(cls.code) == status
    assert error_response(cls("x")).status_code == status


def test_a_timeout_of_an_upstream_service_is_504_and_exit_5() -> None:
    timeout = errors.UpstreamError("slow", code="UPSTREAM_TIMEOUT")
    assert error_response(timeout).status_code == 504 and exit_code_for(timeout.code) == 5


def test_an_unknown_code_is_a_500_and_exit_1() -> None:
    assert http_status_for("NO_SUCH_CODE") == 500 and exit_code_for("NO_SUCH_CODE") == 1
