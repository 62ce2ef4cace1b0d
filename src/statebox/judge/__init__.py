"""Judging: the state judge, required effects, task validation (rubrics and signatures join later)."""

from statebox.judge.replay import ReferenceFailed, judge_attempt, replay, required_effects, rules_for
from statebox.judge.rules import JudgingRules
from statebox.judge.state import judge_state
from statebox.judge.validation import TaskValidation, validate_suite, validate_task
from statebox.judge.verdict import Discrepancy, Verdict

__all__ = [
    "Discrepancy",
    "JudgingRules",
    "ReferenceFailed",
    "TaskValidation",
    "Verdict",
    "judge_attempt",
    "judge_state",
    "replay",
    "required_effects",
    "rules_for",
    "validate_suite",
    "validate_task",
]
