"""A person at the terminal playing one side of an attempt: the agent (with tools) or the customer."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.agents.transcript import Entry
from statebox.tasks import Customer
from statebox.users.base import CustomerActions, CustomerReply, SimulatedCustomer

AGENT_HELP = """\
Type a message to reply to the customer, or a command:
  /tools               the tools, one line each
  /schema NAME         a tool's description and JSON Schema
  /call NAME {JSON}    call a tool with JSON arguments (omit them for none)
  /policy              the policy again
  /end                 end the conversation
  /help                this list"""
CUSTOMER_HELP = "Type your answer to the agent; /end when you are satisfied, /giveup to give up, /help for this."


@dataclass
class Terminal:
    """Where the person reads and types: a console to print to and a line reader (blocking, run off the loop)."""

    console: Console
    read: Callable[[str], str] = input

    async def ask(self, prompt: str) -> str | None:
        """The next line typed, or None at the end of input. The read runs in a daemon thread, so Ctrl-C
        (or any end of the attempt) never waits for a line that is not coming."""
        loop = asyncio.get_running_loop()
        typed: asyncio.Future[str] = loop.create_future()

        def settle(line: str | None, error: BaseException | None) -> None:
            if typed.done():
                return
            if error is not None:
                typed.set_exception(error)
            else:
                typed.set_result(line or "")

        def read() -> None:
            try:
                line, error = self.read(prompt), None
            except (EOFError, OSError) as e:
                line, error = None, e
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting any more
                loop.call_soon_threadsafe(settle, line, error)

        threading.Thread(target=read, name="statebox-play-input", daemon=True).start()
        try:
            return (await typed).strip()
        except (EOFError, OSError):
            return None

    def say(self, text: str, style: str = "") -> None:
        self.console.print(f"[{style}]{escape(text)}[/]" if style else escape(text))


class HumanAgent(Agent):
    """The agent's side: the person sees the policy and the customer's messages and calls the tools."""

    name = "human"

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self._calls = 0

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        t = self.terminal
        t.say(f"customer: {customer_message}", "bold")
        while True:
            line = await t.ask("agent> ")
            if line is None or line == "/end":
                return AgentTurn("", finish_reason="agent_ended")
            if not line:
                continue
            if not line.startswith("/"):
                return AgentTurn(line)
            if await self._command(ctx, line):
                return AgentTurn("", finish_reason="agent_ended")

    async def _command(self, ctx: AttemptContext, line: str) -> bool:
        """Run one command; True when it ended the attempt (a call to an end-turn tool)."""
        t = self.terminal
        word, _, rest = line.partition(" ")
        if word == "/tools":
            for spec in ctx.tool_specs:
                t.say(f"  {spec.name}{' (writes)' if spec.writes else ''}: {spec.description.splitlines()[0]}")
        elif word == "/schema":
            found = next((s for s in ctx.tool_specs if s.name == rest.strip()), None)
            t.say(json.dumps({"description": found.description, "input_schema": found.input_schema}, indent=2)
                  if found else f"no tool {rest.strip()!r}; /tools lists them")  # fmt: skip
        elif word == "/call":
            return await self._call(ctx, rest.strip())
        elif word == "/policy":
            t.say(ctx.policy)
        else:
            t.say(AGENT_HELP)
        return False

    async def _call(self, ctx: AttemptContext, rest: str) -> bool:
        name, _, raw = rest.partition(" ")
        try:
            args = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as e:
            self.terminal.say(f"not JSON arguments ({e.msg} at column {e.colno}); nothing was called", "red")
            return False
        if not name or not isinstance(args, dict):
            self.terminal.say("usage: /call NAME {JSON object of arguments}", "red")
            return False
        self._calls += 1
        call_id = f"human-{self._calls}"
        ctx.log_call(call_id, name, args, raw or None)
        outcome = await ctx.call_tool(call_id, name, args)
        self.terminal.say(("error: " if outcome.is_error else "") + outcome.text, "red" if outcome.is_error else "cyan")
        return outcome.ends_episode


class HumanCustomer(SimulatedCustomer):
    """The customer's side: the person sees only what a customer would — the agent's messages."""

    name = "human"

    def __init__(self, terminal: Terminal, profile: Customer) -> None:
        self.terminal = terminal
        self.profile = profile

    async def reply(self, visible: list[Entry], actions: CustomerActions | None = None) -> CustomerReply:
        t = self.terminal
        if visible and visible[-1].role == "agent":
            t.say(f"agent: {visible[-1].content}", "bold")
        while True:
            line = await t.ask("you> ")
            if line is None or line == "/end":
                return CustomerReply("", end_reason="satisfied")
            if line == "/giveup":
                return CustomerReply("", end_reason="gave_up")
            if line and not line.startswith("/"):
                return CustomerReply(line)
            t.say(CUSTOMER_HELP)
