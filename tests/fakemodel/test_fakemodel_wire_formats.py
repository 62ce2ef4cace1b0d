"""The fake model speaks each provider's wire format: its replies fit the provider's own response
type (the SDK oracles of tests/llm), a bad request gets that API's error shape, and the agent's
first move is the same whichever format carried the conversation."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fakemodel_shop import REFUND, fake_model, shop_suite

from llm.oracles import response_check
from statebox.fakemodel.wire import APIS

OPENING = REFUND.opening_message
TOOL = {"name": "find_order", "description": "Find an order.", "parameters": {"type": "object", "properties": {}}}
BEDROCK_TOOL = {"name": TOOL["name"], "description": TOOL["description"], "inputSchema": {"json": TOOL["parameters"]}}
# (path, body) of a first request in each format: the customer's opening and one tool offered.
FIRST: dict[str, tuple[str, dict[str, Any]]] = {
    "openai": ("/v1/chat/completions", {"model": "m", "messages": [{"role": "user", "content": OPENING}],
                                        "tools": [{"type": "function", "function": TOOL}]}),
    "azure": ("/openai/deployments/d/chat/completions?api-version=2024-10-21",
              {"messages": [{"role": "user", "content": OPENING}], "tools": [{"type": "function", "function": TOOL}]}),
    "responses": ("/v1/responses", {"model": "m", "store": False, "input": [{"role": "user", "content": OPENING}],
                                    "tools": [{"type": "function", **TOOL}]}),
    "anthropic": ("/v1/messages", {"model": "m", "max_tokens": 100, "messages": [{"role": "user", "content": OPENING}],
                                   "tools": [{"name": TOOL["name"], "description": TOOL["description"],
                                              "input_schema": TOOL["parameters"]}]}),
    "google": ("/v1beta/models/gemini-2.5-flash:generateContent",
               {"contents": [{"role": "user", "parts": [{"text": OPENING}]}],
                "tools": [{"functionDeclarations": [{"name": TOOL["name"], "description": TOOL["description"],
                                                     "parametersJsonSchema": TOOL["parameters"]}]}]}),
    "bedrock": ("/model/m/converse", {"messages": [{"role": "user", "content": [{"text": OPENING}]}],
                                      "toolConfig": {"tools": [{"toolSpec": BEDROCK_TOOL}]}}),
}  # fmt: skip
ORACLE_NAME = {"responses": "openai-responses"}


@pytest.mark.parametrize("api", APIS)
def test_the_reply_fits_the_providers_own_response_type(api: str):
    path, body = FIRST[api]
    with fake_model(shop_suite(), api=api) as server:
        response = httpx.post(f"http://127.0.0.1:{server.port}{path}", json=body, timeout=5)

    assert response.status_code == 200, response.text
    response_check(ORACLE_NAME.get(api, api))(response.json())


@pytest.mark.parametrize("api", APIS)
def test_the_fake_agent_asks_for_the_same_facts_in_every_format(api: str):
    path, body = FIRST[api]
    with fake_model(shop_suite(), api=api) as server:
        reply = httpx.post(f"http://127.0.0.1:{server.port}{path}", json=body, timeout=5).json()

    assert "order" in str(reply).lower() and "could you please tell me" in str(reply).lower(), reply


@pytest.mark.parametrize("api", APIS)
def test_a_bad_request_is_a_400_in_the_apis_error_shape(api: str):
    path, _ = FIRST[api]
    with fake_model(shop_suite(), api=api) as server:
        response = httpx.post(f"http://127.0.0.1:{server.port}{path}", json={"nothing": True}, timeout=5)

    assert response.status_code == 400
    error = response.json()
    message = error.get("message") or error["error"]["message"]
    assert message.startswith("bad request: "), error


def test_only_the_chosen_format_is_served():
    with fake_model(shop_suite(), api="anthropic") as server:
        path, body = FIRST["openai"]
        response = httpx.post(f"http://127.0.0.1:{server.port}{path}", json=body, timeout=5)

    assert response.status_code == 404


def test_statebox_fake_model_api_prints_the_base_url_of_that_format(tmp_path: Path):
    statebox = str(Path(sys.executable).with_name("statebox"))
    proc = subprocess.Popen(
        [statebox, "fake-model", "retail", "--api", "google", "--port", "0"], stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert "(reference, google API) at http://127.0.0.1:" in line and line.rstrip().endswith("/v1beta"), line


def test_statebox_fake_model_refuses_an_unknown_api_in_one_line():
    statebox = str(Path(sys.executable).with_name("statebox"))
    started = time.monotonic()
    done = subprocess.run(
        [statebox, "fake-model", "retail", "--api", "grpc"], capture_output=True, text=True, timeout=60
    )

    assert done.returncode == 2 and done.stderr.startswith("error: --api 'grpc'"), done.stderr
    assert time.monotonic() - started < 60
