"""GRPO against `statebox openenv-serve` with a real (tiny, randomly initialised) `transformers` model: the group
is played by the model through its chat template, the server's judge gives the rewards, and one policy-gradient
step weights each rollout's generated tokens by its group-relative advantage.

    pip install 'statebox[openenv,train]'
    statebox openenv-serve retail --port 8000 &
    python examples/grpo_tiny_model.py --url http://127.0.0.1:8000 --task air_purifier_return_refund_wrong_rma_number

Nothing is downloaded: the tokenizer is trained on the domain's policy and tool list at start-up and the model
(a two-layer Llama) starts from random weights, so it fails every task — what this shows is the loop a trainer
runs, unchanged with a real checkpoint (`AutoModelForCausalLM.from_pretrained(...)` and its tokenizer): the
prompt built by `apply_chat_template(messages, tools=...)`, the tool-call syntax parsed back, the episode over
OpenEnv's client, the rewards, the advantages and the update (docs/training.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

import torch
from grpo_rollout import Rollout, group_advantages, rollout
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

from statebox.openenv.client import StateboxEnv

SPECIALS = ["<|system|>", "<|user|>", "<|assistant|>", "<|tool|>", "<|end|>", "<tool_call>", "</tool_call>"]
# The model family's chat template: tools as JSON in the system turn, a call as <tool_call>{json}</tool_call>.
CHAT_TEMPLATE = (
    "{% for m in messages %}"
    "{% if m.role == 'system' %}<|system|>{{ m.content }}{% if tools %} Tools: {{ tools | tojson }}{% endif %}<|end|>"
    "{% elif m.role == 'assistant' %}<|assistant|>{% if m.content %}{{ m.content }}{% endif %}"
    "{% for c in m.tool_calls or [] %}<tool_call>{{ {'name': c.function.name, 'arguments': c.function.arguments}"
    " | tojson }}</tool_call>{% endfor %}<|end|>"
    "{% else %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
CALL = re.compile(r"<tool_call>(.*?)</tool_call>", re.S)


def tiny_tokenizer(corpus: list[str], vocab: int = 2000) -> PreTrainedTokenizerFast:
    """A byte-level BPE trained on `corpus` (the domain's policy and tools), with the chat template above."""
    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab,
        special_tokens=SPECIALS,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    core.train_from_iterator(corpus, trainer)
    tok = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<|end|>", pad_token="<|end|>")
    tok.chat_template = CHAT_TEMPLATE
    return tok


def tiny_model(vocab: int, seed: int = 0) -> LlamaForCausalLM:
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=vocab,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
    )
    return LlamaForCausalLM(config)


@dataclass
class Turn:
    """One generation: the prompt's token ids and the ids the model sampled after it."""

    prompt: torch.Tensor
    generated: torch.Tensor


@dataclass
class ModelPolicy:
    """A causal LM as the agent: the chat template renders the conversation and tools, the model samples a reply,
    `<tool_call>` blocks naming an offered tool become tool calls, anything else is said to the customer."""

    model: LlamaForCausalLM
    tokenizer: PreTrainedTokenizerFast
    max_turns: int = 4
    max_new_tokens: int = 24
    context: int = 2048  # the prompt's last tokens kept (the policy is long; a tiny model's window is not)
    turns: list[Turn] = field(default_factory=list)

    async def act(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        prompt = self.tokenizer.apply_chat_template(
            messages, tools=tools, add_generation_prompt=True, return_dict=True, return_tensors="pt"
        )["input_ids"]
        prompt = prompt[:, -self.context :]
        with torch.no_grad():
            out = self.model.generate(
                prompt,
                attention_mask=torch.ones_like(prompt),
                do_sample=True,
                max_new_tokens=self.max_new_tokens,
                pad_token_id=self.tokenizer.pad_token_id,
            )
        generated = out[0, prompt.shape[1] :]
        self.turns.append(Turn(prompt[0], generated))
        reply = parse_reply(self.tokenizer.decode(generated, skip_special_tokens=False), tools, len(self.turns))
        if len(self.turns) >= self.max_turns and not reply.get("tool_calls"):
            reply["end"] = True
        return reply


def parse_reply(text: str, tools: list[dict[str, Any]], turn: int) -> dict[str, Any]:
    """The model's text as an assistant message: its well-formed calls of offered tools, or its words."""
    names = {t["function"]["name"] for t in tools}
    calls = []
    for i, block in enumerate(CALL.findall(text)):
        try:
            call = json.loads(block)
        except json.JSONDecodeError:
            continue
        if isinstance(call, dict) and call.get("name") in names and isinstance(call.get("arguments", {}), dict):
            calls.append(
                {
                    "id": f"call_{turn}_{i}",
                    "type": "function",
                    "function": {"name": call["name"], "arguments": call.get("arguments", {})},
                }
            )
    if calls:
        return {"role": "assistant", "content": None, "tool_calls": calls}
    words = CALL.sub("", text).replace("<|end|>", "").strip()
    return {"role": "assistant", "content": words or "..."}


def token_logprob(model: LlamaForCausalLM, turn: Turn) -> torch.Tensor:
    """The summed log-probability the model gives the turn's generated tokens after its prompt."""
    ids = torch.cat([turn.prompt, turn.generated]).unsqueeze(0)
    logits = model(ids).logits[0, turn.prompt.shape[0] - 1 : -1]
    return torch.log_softmax(logits.float(), dim=-1).gather(1, turn.generated.unsqueeze(1)).sum()


def grpo_step(
    model: LlamaForCausalLM, optimizer: torch.optim.Optimizer, group: list[tuple[Rollout, list[Turn]]]
) -> bool:
    """One update: minus each rollout's advantage times the log-probability of its generated tokens, averaged
    over the group. All advantages 0 (every reward equal) gives no gradient: returns False, nothing changed."""
    if all(r.advantage == 0 for r, _ in group):
        return False
    optimizer.zero_grad()
    loss = torch.stack([-r.advantage * token_logprob(model, t) for r, turns in group for t in turns]).sum()
    (loss / len(group)).backward()
    optimizer.step()
    return True


async def play_group(url: str, task_id: str, policies: list[ModelPolicy]) -> list[tuple[Rollout, list[Turn]]]:
    """One episode per policy (one OpenEnv session each), one after another (the model is one process's)."""
    group = []
    for policy in policies:
        async with StateboxEnv(base_url=url) as env:
            group.append((await rollout(env, task_id, policy, max_actions=policy.max_turns + 2), policy.turns))
    group_advantages([r for r, _ in group])
    return group


async def corpus_of(url: str, task_id: str) -> list[str]:
    """What the tokenizer is trained on: the reset observation's policy, first message and tools."""
    async with StateboxEnv(base_url=url) as env:
        start = await env.reset(task_id=task_id)
        obs = start.observation
        return [obs.policy or "", obs.text or "", json.dumps(obs.tools), CHAT_TEMPLATE]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--task", default="air_purifier_return_refund_wrong_rma_number")
    parser.add_argument("--group", type=int, default=4)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    tokenizer = tiny_tokenizer(asyncio.run(corpus_of(args.url, args.task)))
    model = tiny_model(len(tokenizer), args.seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(args.steps):
        policies = [ModelPolicy(model, tokenizer) for _ in range(args.group)]
        group = asyncio.run(play_group(args.url, args.task, policies))
        rewards = " ".join(f"{r.reward:.1f}" for r, _ in group)
        updated = grpo_step(model, optimizer, group)
        print(f"step {step}: rewards {rewards} -> {'updated' if updated else 'no update (all rewards equal)'}")


if __name__ == "__main__":
    main()
