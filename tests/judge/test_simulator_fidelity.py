"""Simulator fidelity: leaked, contradicted and invented facts, and a satisfied end the task rules out."""

from __future__ import annotations

from statebox.agents.transcript import Entry, Transcript
from statebox.judge.fidelity import simulator_faults
from statebox.tasks import Task

TASK = Task.model_validate({
    "id": "t", "domain": "d", "opening_message": "Hi, my parcel never came.",
    "customer": {
        "goal": "Get a refund for the lost parcel.",
        "rules": ["If asked for another order, say ORD-55555 is a different one."],
        "facts": [
            {"key": "order_number", "value": "ORD-90001", "asked_by": ["order number"]},
            {"key": "email", "value": "ana@example.com", "asked_by": ["email"]},
        ],
    },
})


def talk(*lines: tuple[str, str], end: str | None = None) -> Transcript:
    return Transcript(entries=[Entry(role=r, content=t) for r, t in lines], customer_end_reason=end)  # type: ignore[arg-type]


def kinds(transcript: Transcript, task: Task = TASK) -> list[tuple[str, str | None, int]]:
    return [(f.kind, f.fact, f.message_index) for f in simulator_faults(task, transcript)]


def test_an_honest_customer_has_no_faults() -> None:
    transcript = talk(("customer", TASK.opening_message), ("agent", "What is your order number?"),
                      ("customer", "It's ORD-90001."), ("agent", "And your email?"), ("customer", "ana@example.com"))
    assert kinds(transcript) == []


def test_stating_a_fact_before_it_was_asked_for_is_a_leak() -> None:
    transcript = talk(("customer", TASK.opening_message), ("agent", "Sorry to hear that. How can I help?"),
                      ("customer", "Order ORD-90001, email ana@example.com."))
    assert kinds(transcript) == [("leaked_fact", "order_number", 2), ("leaked_fact", "email", 2)]


def test_answering_with_another_value_for_the_asked_fact_is_a_contradiction() -> None:
    transcript = talk(("customer", TASK.opening_message), ("agent", "What is your order number?"),
                      ("customer", "It's ORD-12345."))
    [fault] = simulator_faults(TASK, transcript)
    assert (fault.kind, fault.fact) == ("contradicted_fact", "order_number")
    assert "ORD-12345" in fault.evidence and "ORD-90001" in fault.evidence


def test_an_identifier_of_a_kind_it_holds_that_is_not_one_of_its_facts_is_an_invention() -> None:
    transcript = talk(("customer", TASK.opening_message), ("agent", "What is your email?"),
                      ("customer", "ana@example.com. Also order ORD-77777 was late."))
    assert kinds(transcript) == [("invented_identifier", "order_number", 2)]


def test_identifiers_the_task_gave_the_customer_or_the_agent_said_are_not_inventions() -> None:
    transcript = talk(("customer", TASK.opening_message), ("agent", "Is it order ORD-44444?"),
                      ("customer", "No, ORD-44444 is not mine; ORD-55555 is a different one too."))
    assert kinds(transcript) == []


def test_ending_satisfied_when_the_task_says_the_request_cannot_be_met_is_a_fault() -> None:
    blocked = TASK.model_copy(update={"customer": TASK.customer.model_copy(update={"may_end_satisfied": False})})
    transcript = talk(("customer", TASK.opening_message), ("agent", "I can't refund that."), end="satisfied")
    assert kinds(transcript, blocked) == [("satisfied_without_resolution", None, 1)]
    assert kinds(talk(("customer", TASK.opening_message), end="gave_up"), blocked) == []
