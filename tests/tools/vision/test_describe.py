"""vision.describe_image: off (CONFIG_ERROR naming the setting) until a vision endpoint is set; then the
image goes to it as an OpenAI image_url part, its type read from its bytes."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

import pytest
from scripted_llm import Reply, ScriptedLLM

from curbside.app import Curbside
from curbside.settings import Settings
from curbside.tools.vision.describe import image_type
from curbside.types import ToolCaller

DR = ToolCaller(user="dr-vision", role="clinician", channel="cli")
# a 1×1 PNG, whole (signature, IHDR, IDAT, IEND)
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def call(core: Curbside, **args: object):
    return asyncio.run(core.tools.call("vision.describe_image", args, caller=DR))


def test_off_until_configured_and_nothing_is_sent(tmp_path: Path) -> None:
    core = Curbside(Settings(home=tmp_path / "home"))
    try:
        result = call(core, image=PNG)
    finally:
        core.close()
    assert result.error is not None and result.error.code == "CONFIG_ERROR"
    assert "CURBSIDE_VISION_LLM_URL" in result.error.message


def test_the_image_goes_to_the_vision_model_as_an_image_part(tmp_path: Path) -> None:
    with ScriptedLLM() as vision:
        vision.default = Reply("A single white pixel.", stream=False)
        core = Curbside(Settings(home=tmp_path / "home", vision_llm_url=vision.url, vision_llm_model="llava"))
        try:
            result = call(core, image=f"data:image/jpeg;base64,{PNG}", question="What is this?")
        finally:
            core.close()
        body = vision.requests[0]["body"]
    assert result.ok and result.result is not None
    assert result.result["description"] == "A single white pixel."
    assert result.result["image_type"] == "image/png"  # the bytes say PNG, whatever the data URL said
    assert "not a diagnosis" in result.result["caveat"]
    text, image = body["messages"][0]["content"]
    assert body["model"] == "llava" and text == {"type": "text", "text": "What is this?"}
    assert image["image_url"]["url"] == f"data:image/png;base64,{PNG}"


@pytest.mark.parametrize(
    ("image", "message"),
    [
        ("not base64 at all!!!", "not valid base64"),
        (base64.b64encode(b"%PDF-1.7 a document, not an image").decode(), "not a PNG, JPEG, GIF or WebP"),
    ],
)
def test_what_is_not_an_image_is_refused_before_anything_is_sent(tmp_path: Path, image: str, message: str) -> None:
    with ScriptedLLM() as vision:
        core = Curbside(Settings(home=tmp_path / "home", vision_llm_url=vision.url))
        try:
            result = call(core, image=image)
        finally:
            core.close()
        assert not vision.requests
    assert result.error is not None and result.error.code == "VALIDATION_ERROR" and message in result.error.message


def test_image_types_are_read_from_their_bytes() -> None:
    assert image_type(base64.b64decode(PNG)) == "image/png"
    assert image_type(b"\xff\xd8\xff\xe0rest") == "image/jpeg"
    assert image_type(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "image/webp"
    assert image_type(b"<svg xmlns=") is None
