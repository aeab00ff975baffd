"""docs/decisions/README.md indexes every decision record, as tools/decision_index.py writes it from the records."""

import importlib.util
from pathlib import Path
from types import ModuleType

TOOL = Path(__file__).resolve().parents[2] / "tools" / "decision_index.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("decision_index", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_topics_name_each_record_once() -> None:
    assert _tool().misfiled() == [], "fix TOPICS in tools/decision_index.py"


def test_the_index_is_the_one_the_records_give() -> None:
    tool = _tool()
    index = (tool.DECISIONS / "README.md").read_text(encoding="utf-8")
    for number, path in tool.records().items():
        assert f"| {number} | [" in index and f"]({path.name})" in index, f"{path.name} is not in the index"
    assert index == tool.render(), "run `python3 tools/decision_index.py`"


def test_a_record_no_topic_names_is_indexed_as_not_yet_filed(tmp_path: Path) -> None:
    tool = _tool()
    for path in tool.records().values():
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "0999-a-new-choice.md").write_text("# 0999 A new choice\n\n## Decision\nIt is so.\n", encoding="utf-8")
    setattr(tool, "DECISIONS", tmp_path)  # noqa: B010 - the module is loaded from its file, so mypy cannot see it
    index = tool.render()
    assert index.endswith(
        "## Not yet filed under a topic\n\n| No. | Decision | In one line |\n| --- | --- | --- |\n"
        "| 0999 | [A new choice](0999-a-new-choice.md) | It is so. |\n"
    )
