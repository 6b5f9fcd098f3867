"""The routing policy: which endpoint a prompt may reach, by mode and PHI verdict."""

from __future__ import annotations

import pytest

from curbside.llm.endpoints import ModelRouter
from curbside.settings import Settings

LOCAL = "http://127.0.0.1:9/v1"
CLOUD = "https://cloud.example/v1"


def router(mode: str, *, local: bool = True, cloud: bool = True) -> ModelRouter:
    return ModelRouter(
        Settings(llm_routing=mode, local_llm_url=LOCAL if local else None, cloud_llm_url=CLOUD if cloud else None)  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("mode", "local", "cloud", "phi", "expected"),
    [
        # hybrid: PHI stays local; the rest goes to the cloud when there is one
        ("hybrid", True, True, True, "local"),
        ("hybrid", True, True, False, "cloud"),
        ("hybrid", False, True, True, None),
        ("hybrid", False, True, False, "cloud"),
        ("hybrid", True, False, True, "local"),
        ("hybrid", True, False, False, "local"),
        ("hybrid", False, False, False, None),
        # local-only never calls the cloud, whatever is configured
        ("local-only", True, True, False, "local"),
        ("local-only", True, True, True, "local"),
        ("local-only", False, True, False, None),
        # cloud-only never calls the local model and never sends PHI
        ("cloud-only", True, True, False, "cloud"),
        ("cloud-only", True, True, True, None),
        ("cloud-only", True, False, False, None),
    ],
)
def test_route_by_mode_endpoints_and_phi(mode: str, local: bool, cloud: bool, phi: bool, expected: str | None) -> None:
    route = router(mode, local=local, cloud=cloud).route(phi)
    assert route.endpoint == expected
    assert route.model_used == (expected or "extractive")
    assert route.reason


def test_only_a_router_that_may_reach_the_cloud_needs_screening() -> None:
    assert router("hybrid").needs_screening
    assert not router("local-only").needs_screening
    assert not router("hybrid", cloud=False).needs_screening
    assert router("cloud-only", local=False).needs_screening


def test_an_endpoint_the_mode_forbids_is_reported_unused() -> None:
    assert any("cloud model is unused" in w for w in router("local-only").warnings)
    assert any("local model is unused" in w for w in router("cloud-only").warnings)
    assert router("hybrid").warnings == []


def test_no_endpoint_means_extractive_answers() -> None:
    plain = ModelRouter(Settings())
    assert not plain.has_model and plain.description == "none (extractive answers)"


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="llm_routing"):
        Settings(llm_routing="everywhere")  # type: ignore[arg-type]


def test_each_endpoint_has_its_own_breaker() -> None:
    both = router("hybrid")
    for _ in range(5):
        both.breakers["local"].record_failure()
    assert not both.breakers["local"].allow() and both.breakers["cloud"].allow()


def test_no_endpoint_configured_says_which_settings_to_set() -> None:
    route = router("hybrid", local=False, cloud=False).route(False)
    assert route.endpoint is None
    assert route.reason == (
        "no LLM endpoint is configured (set CURBSIDE_LOCAL_LLM_URL or CURBSIDE_CLOUD_LLM_URL); extractive answer"
    )


@pytest.mark.parametrize(
    ("mode", "local", "cloud", "reason"),
    [
        ("local-only", False, True, "routing local-only forbids the cloud model (CURBSIDE_LLM_ROUTING); extractive answer"),
        ("cloud-only", True, False, "routing cloud-only forbids the local model (CURBSIDE_LLM_ROUTING); extractive answer"),
    ],
)
def test_endpoints_the_mode_forbids_are_named_not_called_missing(
    mode: str, local: bool, cloud: bool, reason: str
) -> None:
    route = router(mode, local=local, cloud=cloud).route(False)
    assert route.endpoint is None and route.reason == reason
    assert "configured" not in route.reason


@pytest.mark.parametrize(
    ("mode", "local", "why"),
    [
        ("hybrid", False, "no local model is configured (CURBSIDE_LOCAL_LLM_URL)"),
        ("cloud-only", True, "routing cloud-only forbids the local model (CURBSIDE_LLM_ROUTING)"),
    ],
)
def test_phi_with_no_usable_local_model_says_why(mode: str, local: bool, why: str) -> None:
    route = router(mode, local=local, cloud=True).route(True)
    assert route.endpoint is None
    assert route.reason == f"the prompt holds PHI and {why}, so nothing is sent; extractive answer"


def test_keys_are_secrets_shown_nowhere_but_sent_to_their_endpoint() -> None:
    """`repr(Settings(cloud_llm_key=…))` once showed the key; it is a secret now, given only to its client."""
    import asyncio

    from scripted_llm import Reply, ScriptedLLM

    with ScriptedLLM() as llm:
        settings = Settings(cloud_llm_url=llm.url, cloud_llm_key="sk-cloud-secret", local_llm_key="sk-local-secret")
        for shown in (repr(settings), str(settings), settings.model_dump_json()):
            assert "sk-cloud-secret" not in shown and "sk-local-secret" not in shown
        llm.replies.append(Reply("An answer [1].", stream=False))
        client = ModelRouter(settings).clients["cloud"]
        asyncio.run(client.complete([{"role": "user", "content": "q"}], max_tokens=20, temperature=0.0))
    assert llm.requests[0]["headers"]["Authorization"] == "Bearer sk-cloud-secret"
