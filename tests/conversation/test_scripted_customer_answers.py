"""The scripted customer: deterministic answers from its private facts, only to what it is asked."""

from __future__ import annotations

import asyncio

import pytest

from statebox.agents.transcript import Entry
from statebox.tasks import Customer, Fact
from statebox.users.base import CustomerReply
from statebox.users.scripted import UNKNOWN, ScriptedCustomer

ORDER = Fact(key="order_id", value="ORD-1001", asked_by=["order number", "order id"])
EMAIL = Fact(key="email", value="ann@example.com", asked_by=["email address", "email"])
PROFILE = Customer(goal="Get a refund for order ORD-1001.", facts=[ORDER, EMAIL], confirms=["refund"])
OPENING = "Hello, my blender arrived broken."


def conversation(*agent_and_customer: str) -> list[Entry]:
    """The visible conversation: the customer's opening, then agent and customer in turn."""
    entries = [Entry(role="customer", content=OPENING)]
    for i, text in enumerate(agent_and_customer):
        entries.append(Entry(role="agent" if i % 2 == 0 else "customer", content=text))
    return entries


def reply(*agent_and_customer: str, profile: Customer = PROFILE) -> CustomerReply:
    return asyncio.run(ScriptedCustomer(profile).reply(conversation(*agent_and_customer)))


def test_a_question_for_one_fact_gets_that_fact_and_no_other() -> None:
    answer = reply("What is your order number?")
    assert answer.text == "My order number is ORD-1001."
    assert EMAIL.value not in answer.text
    assert not answer.ended


def test_each_of_a_facts_asking_phrases_asks_for_it() -> None:
    assert ORDER.value in reply("Can you give me the order ID, please?").text


def test_a_question_for_two_facts_gets_both_in_one_message() -> None:
    answer = reply("Could you tell me your order number and the email address on the account?")
    assert answer.text == "My order number is ORD-1001. My email address is ann@example.com."


def test_a_fact_asked_for_again_is_given_again() -> None:
    first = reply("What is your order number?")
    again = reply("What is your order number?", first.text, "Sorry, what was your order number again?")
    assert again.text == first.text == "My order number is ORD-1001."


def test_a_question_about_something_it_does_not_know_gets_i_dont_have_that_information() -> None:
    answer = reply("What is your loyalty card number?")
    assert (answer.text, answer.ended) == (UNKNOWN, False)


def test_it_gives_up_after_too_many_questions_it_cannot_answer() -> None:
    answer = reply("What is your card number?", UNKNOWN, "And your postcode?", UNKNOWN, "Your phone number?")
    assert (answer.text, answer.end_reason) == (UNKNOWN, "gave_up")


def test_a_confirmation_that_matches_its_goal_gets_a_yes() -> None:
    answer = reply("Shall I issue a refund of $49.99 to your card?")
    assert (answer.text, answer.ended) == ("Yes, please go ahead.", False)


def test_a_confirmation_of_something_else_gets_a_no() -> None:
    answer = reply("Shall I cancel your whole account?")
    assert answer.text == "No, that is not what I asked for."


@pytest.mark.parametrize(
    "message",
    [
        "Your refund of $49.99 has been issued. Thank you for contacting us.",
        "I have opened a ticket for you.",
    ],
)
def test_a_message_that_asks_nothing_more_ends_the_conversation_as_satisfied(message: str) -> None:
    answer = reply(message)
    assert answer.ended and answer.end_reason == "satisfied"


def test_it_answers_the_latest_agent_message_not_an_earlier_one() -> None:
    answer = reply("What is your order number?", "My order number is ORD-1001.", "Thanks, all done now.")
    assert answer.end_reason == "satisfied"


@pytest.mark.parametrize(
    "message",
    [
        "I can confirm that your refund of $49.99 has been issued.",
        "I'm sorry, but I cannot proceed with the refund, so I am unable to complete your request.",
    ],
)
def test_a_statement_that_mentions_confirming_but_asks_nothing_ends_the_conversation(message: str) -> None:
    answer = reply(message)
    assert answer.end_reason == "satisfied", answer.text


def test_a_customer_whose_request_cannot_be_met_ends_without_being_satisfied() -> None:
    from statebox.tasks import Customer
    from statebox.users.scripted import ScriptedCustomer

    blocked = ScriptedCustomer(Customer(goal="a refund the policy forbids", may_end_satisfied=False))
    assert blocked.answer("I'm sorry, that cannot be refunded.").end_reason == "gave_up"
    assert ScriptedCustomer(Customer(goal="a refund")).answer("Refunded.").end_reason == "satisfied"
