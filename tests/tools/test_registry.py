"""Registration: every declaration checked at once, duplicates refused, schemas derived."""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, Field

import curbside.tools
from curbside.errors import NotFoundError
from curbside.tools import ToolContext, ToolDefinitionError, ToolRegistry, ToolSpec


class Args(BaseModel):
    drug: str = Field(description="Name, brand or ingredient.")
    top_k: int = Field(5, ge=1, le=10)


class Result(BaseModel):
    covered: bool


async def handler(ctx: ToolContext, args: Args) -> Result:
    return Result(covered=True)


def spec(**changes: Any) -> ToolSpec[Any, Any]:
    base: ToolSpec[Any, Any] = ToolSpec(
        name="demo.get",
        description="A demonstration tool.",
        args_model=Args,
        result_model=Result,
        handler=handler,
        category="coverage",
        requires_phi=False,
        timeout_s=1.0,
    )
    return dataclasses.replace(base, **changes)


def problems_of(bad: ToolSpec[Any, Any]) -> str:
    with pytest.raises(ToolDefinitionError) as caught:
        ToolRegistry().register(bad)
    return str(caught.value)


def test_a_valid_tool_registers_and_its_schemas_come_from_its_models() -> None:
    registry = ToolRegistry()
    registered = registry.register(spec())
    assert registry.get("demo.get") is registered
    assert "demo.get" in registry and len(registry) == 1 and registry.names() == ["demo.get"]
    assert registered.input_schema() == Args.model_json_schema()
    assert registered.input_schema()["properties"]["top_k"] == {
        "default": 5,
        "maximum": 10,
        "minimum": 1,
        "title": "Top K",
        "type": "integer",
    }
    assert registered.output_schema()["required"] == ["covered"]


def test_duplicate_names_are_refused_and_the_first_tool_stays() -> None:
    registry = ToolRegistry()
    first = registry.register(spec())
    message = problems_of_registry(registry, spec(description="Another tool with the same name."))
    assert "already registered" in message
    assert registry.get("demo.get") is first


def problems_of_registry(registry: ToolRegistry, bad: ToolSpec[Any, Any]) -> str:
    with pytest.raises(ToolDefinitionError) as caught:
        registry.register(bad)
    return str(caught.value)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"name": "get"}, "must look like 'family.action'"),
        ({"name": "ODB.Get"}, "must look like 'family.action'"),
        ({"name": "odb get"}, "must look like 'family.action'"),
        ({"description": "  "}, "description is empty"),
        ({"args_model": dict}, "args_model must be a pydantic BaseModel subclass"),
        (
            {"result_model": Result(covered=True)},
            "result_model must be a pydantic BaseModel subclass",
        ),
        (
            {"category": "Drug Coverage"},
            "category 'Drug Coverage' must be one lower-case word",
        ),
        ({"requires_phi": "no"}, "requires_phi must be True or False"),
        (
            {"risk_level": "extreme"},
            "risk_level 'extreme' must be one of low, medium, high",
        ),
        (
            {"risk_level": "high"},
            "a high-risk tool must set requires_confirmation=True",
        ),
        ({"timeout_s": 0}, "timeout_s must be a finite number of seconds above 0"),
        ({"timeout_s": -1.0}, "timeout_s must be a finite number"),
        ({"timeout_s": float("inf")}, "timeout_s must be a finite number"),
        ({"rate_limit": 0}, "rate_limit must be None (unlimited) or a whole number"),
        ({"rate_limit": 2.5}, "rate_limit must be None (unlimited) or a whole number"),
        (
            {"allowed_roles": frozenset()},
            "allowed_roles must be None (every role) or a non-empty frozenset",
        ),
        (
            {"allowed_roles": ["admin"]},
            "allowed_roles must be None (every role) or a non-empty frozenset",
        ),
        ({"warm_up": "yes"}, "warm_up must be None or a function"),
    ],
)
def test_each_declaration_problem_is_named(changes: dict[str, Any], expected: str) -> None:
    assert expected in problems_of(spec(**changes))


def test_handlers_must_be_async_and_take_ctx_and_args() -> None:
    def sync_handler(ctx: ToolContext, args: Args) -> Result:
        return Result(covered=True)

    async def one_parameter(args: Args) -> Result:
        return Result(covered=True)

    assert "must be an 'async def' function" in problems_of(spec(handler=sync_handler))
    assert "must accept two positional parameters (ctx, args)" in problems_of(spec(handler=one_parameter))


def test_models_without_a_json_object_schema_are_refused() -> None:
    class Opaque:
        pass

    class Unschemable(BaseModel, arbitrary_types_allowed=True):
        thing: Opaque

    assert "the argument model has no JSON schema" in problems_of(spec(args_model=Unschemable))


def test_all_problems_are_reported_together() -> None:
    message = problems_of(spec(name="bad", timeout_s=0, category="", risk_level="high"))
    assert message.startswith("Tool 'bad' cannot be registered:")
    assert message.count("\n  - ") == 4


def test_unknown_names_raise_not_found_listing_the_known_tools() -> None:
    registry = ToolRegistry()
    registry.register(spec())
    with pytest.raises(NotFoundError, match=r"No tool named 'odb.gte'\. Known tools: demo\.get\."):
        registry.get("odb.gte")


def test_public_api_matches_all() -> None:
    # submodules are bound on the package once imported; they are not part of its API
    public = {n for n, v in vars(curbside.tools).items() if not n.startswith("_") and not isinstance(v, ModuleType)}
    assert sorted(curbside.tools.__all__) == sorted(public)
