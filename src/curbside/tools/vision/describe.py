"""``vision.describe_image``: an image (base64 or a data URL) described by the configured vision model."""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx
from pydantic import BaseModel, ConfigDict, Field

from curbside.errors import ConfigError, UpstreamError, ValidationError
from curbside.tools.base import ToolContext, ToolSpec

if TYPE_CHECKING:
    from curbside.settings import Settings

__all__ = ["DescribeImageArgs", "ImageDescription", "VisionDeps", "image_type", "spec"]

NO_VISION = (
    "Image analysis is off: set CURBSIDE_VISION_LLM_URL to an OpenAI-compatible vision model that runs on this "
    "clinic's machines (an image of a patient is PHI), and CURBSIDE_VISION_LLM_MODEL to its name."
)
CAVEAT = "A vision model's description of the image, not a diagnosis: check it against the image."
_DATA_URL = re.compile(r"^data:(?P<mime>[\w.+-]+/[\w.+-]+);base64,(?P<data>.*)$", re.S)
# what the bytes say the image is (magic numbers), whatever the caller says
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


@dataclass(frozen=True)
class VisionDeps:
    settings: Settings
    transport: httpx.AsyncBaseTransport | None = None  # tests


class DescribeImageArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    image: str = Field(
        min_length=16,
        description="The image: a data URL (data:image/png;base64,…) or its base64 bytes. PNG, JPEG, GIF or WebP.",
    )
    question: str = Field(
        "Describe what this clinical image shows, plainly and briefly.",
        max_length=500,
        description="What to look for or ask about the image.",
    )


class ImageDescription(BaseModel):
    description: str
    image_type: str = Field(description="The image's type, read from its bytes.")
    image_bytes: int
    model: str
    caveat: str = CAVEAT


def image_type(data: bytes) -> str | None:
    """The image's MIME type from its first bytes, or None when it is not an image type we accept."""
    for magic, mime in _MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _decode(image: str, max_bytes: int) -> tuple[bytes, str]:
    found = _DATA_URL.match(image)
    encoded = found.group("data") if found else image
    if len(encoded) > max_bytes * 4 // 3 + 8:
        raise ValidationError(
            f"The image is over {max_bytes:,} bytes (CURBSIDE_VISION_MAX_IMAGE_BYTES); send a smaller one."
        )
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError("The image is not valid base64 (or a data: URL holding base64).") from None
    mime = image_type(data)
    if mime is None:
        raise ValidationError("The bytes are not a PNG, JPEG, GIF or WebP image.")
    return data, mime


async def _describe(ctx: ToolContext[VisionDeps], args: DescribeImageArgs) -> ImageDescription:
    settings = ctx.deps.settings
    if not settings.vision_llm_url:
        raise ConfigError(NO_VISION)
    data, mime = _decode(args.image, settings.vision_max_image_bytes)
    url = f"data:{mime};base64,{base64.b64encode(data).decode()}"
    body: dict[str, Any] = {
        "model": settings.vision_llm_model,
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": args.question}, {"type": "image_url", "image_url": {"url": url}}],
            }
        ],
        "max_tokens": 300,
        "temperature": 0.0,
    }
    key = settings.vision_llm_key.get_secret_value() if settings.vision_llm_key is not None else None
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    base = settings.vision_llm_url.rstrip("/")
    try:
        async with httpx.AsyncClient(
            timeout=settings.llm_timeout_s, headers=headers, transport=ctx.deps.transport
        ) as http:
            response = await http.post(f"{base}/chat/completions", json=body)
    except httpx.TimeoutException as exc:
        raise UpstreamError(f"The vision model at {base} timed out.", code="UPSTREAM_TIMEOUT") from exc
    except httpx.HTTPError as exc:
        raise UpstreamError(f"Cannot reach the vision model at {base}: {exc or type(exc).__name__}.") from exc
    if response.status_code >= 400:
        raise UpstreamError(f"The vision model at {base} answered HTTP {response.status_code}: {response.text[:200]}")
    try:
        payload = response.json()
        text = str(payload["choices"][0]["message"]["content"] or "").strip()
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise UpstreamError(f"The vision model at {base} sent no choices[0].message.content.") from exc
    if not text:
        raise UpstreamError(f"The vision model at {base} described nothing.")
    return ImageDescription(
        description=text,
        image_type=mime,
        image_bytes=len(data),
        model=str(payload.get("model") or settings.vision_llm_model),
    )


def spec(deps: VisionDeps) -> ToolSpec[DescribeImageArgs, ImageDescription]:
    settings = deps.settings
    return ToolSpec(
        name="vision.describe_image",
        description=(
            "Describe a clinical image (a photo of a rash, a wound, a scanned document) with the configured vision "
            "model. Off unless CURBSIDE_VISION_LLM_URL is set. A description to check, never a diagnosis."
        ),
        args_model=DescribeImageArgs,
        result_model=ImageDescription,
        handler=_describe,
        category="vision",
        requires_phi=True,  # an image of a patient is PHI
        timeout_s=settings.llm_timeout_s,
        rate_limit=settings.tool_ehr_rate_limit,
        deps=deps,
    )
