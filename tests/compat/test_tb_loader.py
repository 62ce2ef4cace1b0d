"""Reading a ThinkingBox-Bench checkout: tasks from docstrings (never executed), scenarios, merges."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from statebox.compat.thinkingbox import TbCheckout, TbFormatError, domain_of
from statebox.compat.thinkingbox.checkout_files import parse_scenario
from tbfakes import CONSULTING_FILE, RETAIL_FILE, RUBRIC_FILE, FakeCheckout

RETAIL = "sandbox_external_retail"


@pytest.fixture(scope="module")
def checkout(fake: FakeCheckout) -> TbCheckout:
    return TbCheckout(fake.root)


def test_every_supported_task_of_the_test_list_is_loaded_in_order(checkout: TbCheckout, fake: FakeCheckout) -> None:
    tasks, _ = checkout.tasks()
    assert [task.id for task in tasks] == [i for i in fake.test_ids if i not in fake.unsupported_ids]
    assert len(tasks) == 7


def test_an_unsupported_body_is_reported_by_task_id_with_the_reason(checkout: TbCheckout) -> None:
    _, unsupported = checkout.tasks()
    assert [task_id for task_id, _ in unsupported] == [f"{RETAIL_FILE}:test_custom_assert"]
    reason = unsupported[0][1]
    assert reason.startswith("line ") and "takes tmp_path; a custom check gets only x" in reason, reason


def test_test_files_are_parsed_never_executed(checkout: TbCheckout, fake: FakeCheckout) -> None:
    path = fake.root / "dataset/test_case" / RETAIL / RETAIL_FILE
    assert "raise SystemExit" in path.read_text()
    ran = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
    assert ran.returncode != 0  # executing it would fail at once
    assert checkout.task(f"{RETAIL_FILE}:test_cancel_order").query == "Please cancel order ORD-2."


def test_domain_comes_from_the_file_prefix(checkout: TbCheckout) -> None:
    tasks, _ = checkout.tasks()
    assert {task.file: task.domain for task in tasks} == {
        RETAIL_FILE: "retail",
        RUBRIC_FILE: "retail",
        CONSULTING_FILE: "consulting",
    }
    assert domain_of("external_booking_v1_group1_rubrics_yesno.py") == "travel"
    assert domain_of("sandbox_neobank_support_v1_group1.py") == "neobank"
    assert domain_of("sandbox_auto_insurance_group1.py") == "auto_insurance"
    assert domain_of("something_else.py") == "other"


def test_a_task_gets_the_documented_defaults(checkout: TbCheckout) -> None:
    task = checkout.task(f"{RETAIL_FILE}:test_cancel_order")
    assert (task.max_user_sim_turns, task.max_agent_sim_turns, task.tags) == (10, None, [])
    assert task.checks == ["database"] and task.rubrics == []
    assert task.scenario == RETAIL  # from the module-level docstring


def test_function_yaml_wins_over_the_module_defaults(checkout: TbCheckout) -> None:
    shipping = checkout.task(f"{RETAIL_FILE}:test_expedite_shipping")
    assert (shipping.max_user_sim_turns, shipping.max_agent_sim_turns, shipping.tags) == (4, 30, ["shipping"])
    override = checkout.task(f"{CONSULTING_FILE}:test_scenario_override")
    assert override.scenario == RETAIL and override.domain == "consulting"


def test_a_rubric_variant_reuses_a_function_name_under_its_own_id(checkout: TbCheckout) -> None:
    base = checkout.task(f"{RETAIL_FILE}:test_cancel_order")
    variant = checkout.task(f"{RUBRIC_FILE}:test_cancel_order")
    assert base.function == variant.function and base.id != variant.id
    assert variant.checks == ["database", "rubrics_yesno"]
    assert variant.rubrics == ["Does the final message confirm the cancellation?"]


def test_files_are_found_directly_or_in_the_longest_prefix_folder(checkout: TbCheckout) -> None:
    assert checkout.resolve_file(CONSULTING_FILE) == checkout.root / "dataset/test_case" / CONSULTING_FILE
    assert checkout.resolve_file(RUBRIC_FILE) == checkout.root / "dataset/test_case" / RETAIL / RUBRIC_FILE
    with pytest.raises(TbFormatError, match=r"sandbox_external_retail_group9\.py not found"):
        checkout.resolve_file("sandbox_external_retail_group9.py")


def test_world_state_merge_concatenates_lists_and_replaces_a_falsy_scenario_value(checkout: TbCheckout) -> None:
    init = checkout.init_config(checkout.task(f"{RETAIL_FILE}:test_cancel_order"), RETAIL)
    assert init.config["notes"] == ["from the scenario", "from the task"]
    assert init.config["data_patch"]["orders"][0]["id"] == "ORD-2"  # scenario had `data_patch: null`
    assert init.config["rubrics"] is None  # scenario-only keys stay


def test_world_state_merge_merges_dicts_recursively_with_the_task_winning(checkout: TbCheckout) -> None:
    init = checkout.init_config(checkout.task(f"{CONSULTING_FILE}:test_escalation"), "sandbox_consulting")
    assert init.config["settings"] == {"currency": "USD", "strict": False}
    assert [row["id"] for row in init.config["data_patch"]["products"]] == ["PRD-9", "PRD-10"]


def test_sources_are_taken_out_of_init_and_returned_as_policy_documents(checkout: TbCheckout) -> None:
    init = checkout.init_config(checkout.task(f"{RETAIL_FILE}:test_cancel_order"), RETAIL)
    assert "sources" not in init.config
    assert [source.name for source in init.sources] == [
        f"{RETAIL} Refunds.md",
        f"{RETAIL} Shipping.md",
        f"{RETAIL} Warranty.md",
    ]


def test_the_servers_of_a_task_come_from_scenario_and_init(checkout: TbCheckout) -> None:
    assert checkout.task_servers(checkout.task(f"{CONSULTING_FILE}:test_escalation")) == ["sandbox_consulting"]


def test_another_test_list_can_be_given(checkout: TbCheckout, tmp_path: Path) -> None:
    listing = tmp_path / "mine.yaml"
    listing.write_text(f"- {CONSULTING_FILE}:test_escalation\n- {CONSULTING_FILE}:test_escalation\n")
    tasks, unsupported = checkout.tasks(listing)
    assert [task.id for task in tasks] == [f"{CONSULTING_FILE}:test_escalation"] and unsupported == []


def test_a_test_list_entry_that_is_not_a_task_id_is_an_error(checkout: TbCheckout, tmp_path: Path) -> None:
    listing = tmp_path / "bad.yaml"
    listing.write_text("- just_a_name\n")
    with pytest.raises(TbFormatError, match="'just_a_name' is not a task id"):
        checkout.tasks(listing)


def test_a_missing_function_names_the_task_and_file(checkout: TbCheckout) -> None:
    with pytest.raises(TbFormatError, match=rf"{RETAIL_FILE}:test_nope: .*{RETAIL_FILE} has no task function"):
        checkout.task(f"{RETAIL_FILE}:test_nope")


def _add_task(fake: FakeCheckout, yaml_text: str, body: str = "validate_database(x)") -> str:
    path = fake.root / "dataset/test_case" / CONSULTING_FILE
    indented = "".join(f"    {line}\n" for line in yaml_text.splitlines())
    path.write_text(path.read_text() + f'\n\ndef test_added(x, judge):\n    """!\n{indented}    """\n    {body}\n')
    return f"{CONSULTING_FILE}:test_added"


def test_broken_yaml_names_the_file_and_task(fresh_fake: FakeCheckout) -> None:
    task_id = _add_task(fresh_fake, "query: [unclosed")
    with pytest.raises(TbFormatError, match=rf"{CONSULTING_FILE}:test_added \(line \d+\): invalid YAML"):
        TbCheckout(fresh_fake.root).task(task_id)


def test_an_unknown_key_names_the_task_and_key(fresh_fake: FakeCheckout) -> None:
    task_id = _add_task(fresh_fake, "query: hi\nquerry: typo")
    with pytest.raises(TbFormatError, match=rf"{task_id}: unknown key\(s\) querry"):
        TbCheckout(fresh_fake.root).task(task_id)


def test_a_field_of_the_wrong_type_names_the_task_and_field(fresh_fake: FakeCheckout) -> None:
    task_id = _add_task(fresh_fake, "query: hi\nmax_user_sim_turns: many")
    with pytest.raises(TbFormatError, match=rf"{task_id}: field max_user_sim_turns"):
        TbCheckout(fresh_fake.root).task(task_id)


def test_history_is_allowed_but_unsupported(fresh_fake: FakeCheckout) -> None:
    task_id = _add_task(fresh_fake, "query: hi\nhistory: [{role: user, content: earlier}]")
    with pytest.raises(TbFormatError, match=rf"{task_id}: unsupported: uses history"):
        TbCheckout(fresh_fake.root).task(task_id)


def test_a_rubric_check_without_rubrics_is_unsupported(fresh_fake: FakeCheckout) -> None:
    task_id = _add_task(fresh_fake, "query: hi", body="validate_database(x)\n    validate_rubrics_yesno(x, judge)")
    with pytest.raises(TbFormatError, match="calls validate_rubrics_yesno but no server's init has rubrics_yesno"):
        TbCheckout(fresh_fake.root).task(task_id)


def test_the_agent_spec_has_instructions_and_the_builtin_end_tool(checkout: TbCheckout) -> None:
    agent = checkout.agent()
    assert "<DONE>" in agent.system_instructions and agent.parallel_tool_calls is False
    [tool] = agent.builtin_tools
    assert tool.name == "InjectionAttackInToolResponse" and tool.is_end_turn
    assert tool.input_schema["required"] == ["reason"]


def test_servers_yaml_tells_forkable_modules_from_other_commands(checkout: TbCheckout) -> None:
    servers = checkout.servers()
    assert servers.entry(RETAIL).python_module() == ("fake_tb_server", [])
    assert servers.entry("sandbox_consulting").python_module() is None
    spec = servers.entry(RETAIL).spec("/opt/py/bin/python")
    assert spec.command == ["/opt/py/bin/python", "-m", "fake_tb_server"]
    assert spec.env["FAKE_TB_SERVER_NAME"] == RETAIL
    with pytest.raises(KeyError, match="no server 'nope'"):
        servers.entry("nope")


def test_scenario_tools_may_be_names_entries_or_a_mapping() -> None:
    listed = parse_scenario(
        "s", {"tools": ["a", {"name": "b", "is_end_turn": True}, {"c": {"direct_response": True}}]}, "s"
    )
    mapped = parse_scenario("s", {"tools": {"a": None, "b": {"override_description": "B!"}}}, "s")
    assert [(t.name, t.is_end_turn, t.direct_response) for t in listed.tools] == [
        ("a", False, None),
        ("b", True, None),
        ("c", False, True),
    ]
    assert [(t.name, t.override_description) for t in mapped.tools] == [("a", None), ("b", "B!")]


def test_a_missing_scenario_file_is_named(fresh_fake: FakeCheckout) -> None:
    task_id = _add_task(fresh_fake, "query: hi\nscenario: nowhere")
    with pytest.raises(TbFormatError, match=r"scenario 'nowhere' not found: .*nowhere\.yaml"):
        TbCheckout(fresh_fake.root).task(task_id)


def test_a_folder_that_is_not_a_checkout_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TbFormatError, match="not a ThinkingBox-Bench checkout"):
        TbCheckout(tmp_path)
