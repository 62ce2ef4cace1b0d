"""Tasks tagged `skip` are left out as the benchmark's own loader leaves them out: a test file's tags and
its function's add up, `skip` in either (any case) skips the task; the rest of the list is untouched."""

from __future__ import annotations

from pathlib import Path

import yaml

from statebox.compat.thinkingbox import TbCheckout
from tbfakes import make_fake_checkout

SOURCE = '''"""!
scenario: sandbox_external_retail
tags: [category:user]
"""


def test_kept(x, judge):
    """!
    query: Keep me.
    tags: [category:refusal]
    """
    assert x.effects


def test_skipped(x, judge):
    """!
    query: Skip me.
    tags: [SKIP]
    """
    assert x.effects
'''
SKIPPED_FILE = '''"""!
scenario: sandbox_external_retail
tags: [skip]
"""


def test_whole_file(x, judge):
    """!
    query: The file is skipped.
    """
    assert x.effects
'''


def checkout(tmp_path: Path) -> tuple[TbCheckout, Path]:
    fake = make_fake_checkout(tmp_path / "checkout")
    (fake.root / "dataset/test_case/tagged.py").write_text(SOURCE)
    (fake.root / "dataset/test_case/skipped_file.py").write_text(SKIPPED_FILE)
    listed = fake.root / "tagged.yaml"
    ids = ["tagged.py:test_kept", "tagged.py:test_skipped", "skipped_file.py:test_whole_file"]
    listed.write_text(yaml.safe_dump(ids))
    return TbCheckout(fake.root), listed


def test_a_files_tags_and_its_functions_add_up(tmp_path: Path) -> None:
    found, listed = checkout(tmp_path)
    [kept] = found.read_list(listed).tasks
    assert (kept.id, kept.tags) == ("tagged.py:test_kept", ["category:user", "category:refusal"])


def test_skip_in_the_function_or_the_file_leaves_the_task_out_of_the_runnable_ones(tmp_path: Path) -> None:
    found, listed = checkout(tmp_path)
    read = found.read_list(listed)
    assert [t.id for t in read.skipped] == ["tagged.py:test_skipped", "skipped_file.py:test_whole_file"]
    assert (read.unsupported, [t.id for t in found.tasks(listed)[0]]) == ([], ["tagged.py:test_kept"])
