"""statebox's τ-bench server as configuration of statebox's tool-server launcher (`statebox.mcp.launch`).

One server per domain, `{python} -m statebox_tau_server` in the checkout's folder (so `import tau_bench`
is the checkout's), the server's folder on `PYTHONPATH`, forked from a template that imported τ-bench
(and litellm, which τ-bench imports: seconds) once, unless `fork` is off.
"""

from __future__ import annotations

from pathlib import Path

from statebox.compat.taubench.models import Domain
from statebox.compat.taubench.options import TauRunOptions
from statebox.mcp.launch import LaunchSpec, ToolServerLauncher
from statebox.mcp.servers_file import ServerSpec

SERVER_DIR = Path(__file__).with_name("server")  # holds statebox_tau_server.py alone
MODULE = "statebox_tau_server"


def server_name(domain: Domain) -> str:
    return f"tau-{domain}"


def launch_spec(domain: Domain, options: TauRunOptions) -> LaunchSpec:
    env = {
        "STATEBOX_TAU_DOMAIN": domain,
        "PYTHONPATH": str(SERVER_DIR),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",  # else litellm tries to download a price table at import
    }
    spec = ServerSpec(name=server_name(domain), command=[options.server_python, "-m", MODULE], env=env)
    return LaunchSpec(spec, "fork" if options.fork else "plain", options.prefork if options.fork else 0)


def tau_launcher(checkout: Path, domains: list[Domain], options: TauRunOptions) -> ToolServerLauncher:
    return ToolServerLauncher(
        [launch_spec(d, options) for d in domains],
        cwd=checkout,
        call_timeout_s=options.call_timeout_s,
        start_timeout_s=options.start_timeout_s,
    )
