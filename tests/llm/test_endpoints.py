from __future__ import annotations

from curbside.llm.endpoints import CLOUD_UNSCREENED_WARNING, choose_model
from curbside.settings import Settings


def test_no_endpoint_means_extractive() -> None:
    choice = choose_model(Settings())
    assert choice.client is None and choice.description == "none (extractive answers)"


def test_local_endpoint_wins_over_cloud() -> None:
    choice = choose_model(Settings(local_llm_url="http://127.0.0.1:9/v1", cloud_llm_url="https://cloud.example/v1"))
    assert choice.client is not None and choice.client.name == "local"
    assert choice.warnings == []


def test_cloud_only_warns_that_phi_screening_is_not_active() -> None:
    choice = choose_model(
        Settings(cloud_llm_url="https://cloud.example/v1", cloud_llm_model="gpt-x", cloud_llm_key="k")
    )
    assert choice.client is not None and choice.client.name == "cloud" and choice.client.model == "gpt-x"
    assert choice.warnings == [CLOUD_UNSCREENED_WARNING]
