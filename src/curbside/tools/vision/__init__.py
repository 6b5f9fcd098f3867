"""Image analysis through a pluggable OpenAI-compatible vision endpoint, off unless configured.

    vision.describe_image   what a vision model sees in an image (a photo, a scan)   read

An image of a patient is PHI: the endpoint must be a model the clinic runs (CURBSIDE_VISION_LLM_URL,
e.g. a llama.cpp server with a multimodal projector, or vLLM). Without it a call ends in a ConfigError
naming the setting and sends nothing. The image's type is read from its bytes, not from what the caller
says; the reply is a model's description, never a diagnosis, and says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curbside.tools.vision.describe import VisionDeps

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = ["VisionDeps", "register"]


def register(registry: ToolRegistry, deps: VisionDeps) -> None:
    from curbside.tools.vision.describe import spec

    registry.register(spec(deps))
