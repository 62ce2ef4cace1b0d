"""Where each provider's requests go and how they authenticate: Azure's deployment URL and api-key,
Bedrock's SigV4 signature by botocore, Gemini's key header; and what is missing, refused at build."""

from __future__ import annotations

import datetime
import importlib.util
from pathlib import Path

import pytest

from statebox.llm import Message, base_url_for, make_client

from .providers_kit import BY_NAME, recording

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]
AWS_VARIABLES = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION",
                 "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_BEDROCK_RUNTIME")  # fmt: skip


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """No AWS settings but what the test sets: no profile files, no instance metadata."""
    for name in AWS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    return monkeypatch


async def test_bedrock_requests_are_signed_by_botocore_with_the_environments_credentials(aws: pytest.MonkeyPatch):
    aws.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    aws.setenv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    aws.setenv("AWS_REGION", "eu-west-1")
    provider = BY_NAME["bedrock"]
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        await client.complete(HI)

    [(path, headers, _)] = recorder.requests
    assert path == "/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse", "the model id is quoted in the path"
    authorization = headers["Authorization"]
    today = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d")
    assert authorization.startswith(f"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/{today}/eu-west-1/bedrock/aws4_request")
    assert "SignedHeaders=content-type;host;x-amz-date" in authorization and "Signature=" in authorization
    assert verify_sigv4(f"http://127.0.0.1:{port}{path}", headers, recorder) == authorization


def verify_sigv4(url: str, headers: dict[str, str], recorder) -> str:
    """The Authorization header botocore computes for this request at the time it was signed."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    raw = recorder.raw_bodies[0]
    request = AWSRequest(method="POST", url=url, data=raw, headers={"content-type": "application/json"})
    request.context["timestamp"] = headers["X-Amz-Date"]
    request.headers["X-Amz-Date"] = headers["X-Amz-Date"]
    signer = SigV4Auth(Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), "bedrock", "eu-west-1")
    canonical = signer.canonical_request(request)
    signature = signer.signature(signer.string_to_sign(request, canonical), request)
    scope = f"AKIDEXAMPLE/{headers['X-Amz-Date'][:8]}/eu-west-1/bedrock/aws4_request"
    signed = signer.signed_headers(signer.headers_to_sign(request))
    return f"AWS4-HMAC-SHA256 Credential={scope}, SignedHeaders={signed}, Signature={signature}"


def test_bedrock_without_credentials_is_refused_at_build(aws: pytest.MonkeyPatch):
    aws.setenv("AWS_REGION", "us-east-1")

    with pytest.raises(ValueError, match="found no AWS credentials"):
        make_client("bedrock:amazon.nova-pro-v1:0")


def test_bedrock_without_a_region_is_refused_at_build(aws: pytest.MonkeyPatch):
    aws.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    aws.setenv("AWS_SECRET_ACCESS_KEY", "secret")

    with pytest.raises(ValueError, match="needs an AWS region: set AWS_REGION"):
        make_client("bedrock:amazon.nova-pro-v1:0")


async def test_azure_posts_to_the_deployment_with_the_api_version_and_the_api_key(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("AZURE_OPENAI_API_VERSION", raising=False)
    monkeypatch.delenv("OPENAI_API_VERSION", raising=False)
    provider = BY_NAME["azure"]
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        await client.complete(HI)
    url = f"http://127.0.0.1:{port}"
    async with (
        recording(provider) as (other, port),
        make_client(
            "azure:my-gpt-4o", base_url=f"http://127.0.0.1:{port}", api_key="k2", options={"api_version": "2025-04-01"}
        ) as client,
    ):
        await client.complete(HI)

    [(path, headers, _)] = recorder.requests
    assert path == "/openai/deployments/my-gpt-4o/chat/completions?api-version=2024-10-21"
    assert headers["api-key"] == "k" and "Authorization" not in headers
    assert other.requests[0][0].endswith("?api-version=2025-04-01") and url


def test_azure_without_an_endpoint_says_where_to_give_it(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("AZURE_OPENAI_ENDPOINT", raising=False)

    with pytest.raises(ValueError, match="needs its endpoint: give --base-url or set AZURE_OPENAI_ENDPOINT"):
        make_client("azure:gpt-4o", api_key="k")


def has_azure_identity() -> bool:
    try:
        return importlib.util.find_spec("azure.identity") is not None
    except ModuleNotFoundError:  # no azure namespace at all
        return False


@pytest.mark.skipif(has_azure_identity(), reason="azure-identity is installed: an Entra ID token would be asked for")
def test_azure_without_a_key_or_azure_identity_is_one_line(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("AZURE_OPENAI_API_KEY", raising=False)

    with pytest.raises(ValueError) as caught:
        make_client("azure:gpt-4o", base_url="https://my-resource.openai.azure.com")

    assert "AZURE_OPENAI_API_KEY" in str(caught.value) and "azure-identity" in str(caught.value)


def test_an_option_the_provider_does_not_take_is_refused():
    with pytest.raises(ValueError, match=r"unknown option 'region' for azure \(it takes: api_version\)"):
        make_client("azure:gpt-4o", base_url="http://127.0.0.1:9", api_key="k", options={"region": "x"})


async def test_gemini_sends_its_key_in_its_own_header(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("GEMINI_API_KEY", "g-key")
    provider = BY_NAME["google"]
    async with (
        recording(provider) as (recorder, port),
        make_client("google:gemini-2.5-flash", base_url=f"http://127.0.0.1:{port}/v1beta") as client,
    ):
        await client.complete(HI)

    [(path, headers, _)] = recorder.requests
    assert path == "/v1beta/models/gemini-2.5-flash:generateContent"
    assert headers["x-goog-api-key"] == "g-key"


@pytest.mark.parametrize(
    ("spec", "models", "expected"),
    [
        ("openai:fake", ["openai:fake"], "URL"),
        ("anthropic:claude-sonnet-4-5", ["openai:fake"], None),  # a judge of another provider keeps its own
        ("anthropic:claude-sonnet-4-5", ["anthropic:claude-haiku-4-5"], "URL"),
        ("openai:judge", [], "URL"),  # no --model (a model-free agent): every model
    ],
)
def test_the_runs_base_url_goes_to_the_models_of_the_agents_providers(spec, models, expected):
    assert base_url_for(spec, "URL", models) == expected
