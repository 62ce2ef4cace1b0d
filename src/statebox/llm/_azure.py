"""Azure OpenAI: Chat Completions on a resource's deployment, with an API key or an Entra ID token.

`azure:DEPLOYMENT` posts to `{endpoint}/openai/deployments/DEPLOYMENT/chat/completions?api-version=V`.
The key goes in the `api-key` header; without one, a bearer token for Azure AI services comes from
the optional `azure-identity` (its DefaultAzureCredential: environment, managed identity, the Azure
CLI's login ...), fetched again before it expires.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
import urllib.parse
from typing import Any

from ._endpoint import PLACEHOLDER_KEY, ProviderOption
from ._openai import OpenAIClient
from ._transport import Signer

DEFAULT_API_VERSION = "2024-10-21"
TOKEN_SCOPE = "https://cognitiveservices.azure.com/.default"
_REFRESH_MARGIN_S = 300  # a token this close to its expiry is fetched again


class AzureClient(OpenAIClient):
    """`azure:DEPLOYMENT` over Azure OpenAI's Chat Completions."""

    provider = "azure"
    price_provider = "azure"
    key_env = ("AZURE_OPENAI_API_KEY",)
    base_url_env = ("AZURE_OPENAI_ENDPOINT",)
    default_base_url = None  # every resource has its own: https://RESOURCE.openai.azure.com
    options_declared = (
        ProviderOption(
            "api_version", "the API version", env=("AZURE_OPENAI_API_VERSION", "OPENAI_API_VERSION"),
            default=DEFAULT_API_VERSION,
        ),
    )  # fmt: skip

    def __init__(self, spec: str, **arguments: Any) -> None:
        self._token: EntraToken | None = None
        super().__init__(spec, **arguments)
        self._max_tokens_key = "max_completion_tokens"  # the GA API versions take it, reasoning models need it

    def _url(self, root: str) -> str:
        deployment = urllib.parse.quote(self.model, safe="")
        query = urllib.parse.urlencode({"api-version": self.option("api_version")})
        return f"{root}/openai/deployments/{deployment}/chat/completions?{query}"

    def _resolve_api_key(self, explicit: str | None) -> str:
        key = explicit or os.environ.get("AZURE_OPENAI_API_KEY")
        if key:
            return key
        if _is_loopback(self.root):  # a local stand-in (the fake model) needs no credentials
            return PLACEHOLDER_KEY
        self._token = EntraToken(_credential(self.spec))
        return ""

    def _headers(self, api_key: str) -> dict[str, str]:
        return {"api-key": api_key} if api_key else {}

    def _signer(self) -> Signer | None:
        token = self._token
        if token is None:
            return None
        return lambda body: {"authorization": f"Bearer {token.value()}"}


class EntraToken:
    """A bearer token from an azure-identity credential, renewed shortly before it expires."""

    def __init__(self, credential: Any) -> None:
        self._credential = credential
        self._lock = threading.Lock()
        self._token = ""
        self._expires_on = 0.0

    def value(self) -> str:
        with self._lock:
            if time.time() > self._expires_on - _REFRESH_MARGIN_S:
                # A blocking call, once an hour or so: the credential caches and refreshes on its side too.
                access = self._credential.get_token(TOKEN_SCOPE)
                self._token, self._expires_on = access.token, float(access.expires_on)
            return self._token


def _credential(spec: str) -> Any:
    try:
        identity = importlib.import_module("azure.identity")
    except ImportError:
        raise ValueError(
            f"{spec} needs a key (AZURE_OPENAI_API_KEY) or, for an Entra ID token, the optional package "
            "azure-identity: pip install 'statebox[azure]'"
        ) from None
    return identity.DefaultAzureCredential()


def _is_loopback(url: str) -> bool:
    return (urllib.parse.urlsplit(url).hostname or "") in ("127.0.0.1", "localhost", "::1")
