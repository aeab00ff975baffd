"""Writes docs/decisions/README.md, the index of the decision records by topic, from the records themselves.

Run `python3 tools/decision_index.py` after adding a record (and file its number under a topic in TOPICS below; until
then the index lists it under "Not yet filed"); backend/tests/test_decision_index.py fails while the index is not the
one the records give.
"""

import re
import sys
from pathlib import Path

DECISIONS = Path(__file__).resolve().parents[1] / "docs" / "decisions"

# Each record's number under one topic, in the order the index lists the topics.
TOPICS: dict[str, list[str]] = {
    "Server processes, background work and deployment": [
        "0001", "0036", "0037", "0038", "0049", "0066", "0110", "0140", "0141", "0160", "0161", "0162", "0192",
        "0194", "0199",
    ],
    "Events, caches and live updates": ["0002", "0003", "0004", "0006", "0041", "0047", "0067", "0111", "0198"],
    "The request path and the fast lane": ["0005", "0007", "0040", "0043", "0044", "0046", "0054", "0090", "0197"],
    "The first screen and front-end loading": [
        "0013", "0014", "0030", "0031", "0032", "0033", "0039", "0042", "0045", "0059", "0063", "0064", "0069",
    ],
    "Ideas, outcomes and track records": [
        "0015", "0016", "0017", "0018", "0019", "0034", "0048", "0060", "0061", "0062", "0091", "0101", "0102", "0170",
        "0171", "0172",
    ],
    "How screens write figures": ["0120", "0121", "0122"],
    "The member's desk and journal": ["0020", "0021", "0022", "0056", "0057", "0081"],
    "Offline": ["0052"],
    "Teaching on the verified record": ["0178", "0180", "0190"],
    "Media": ["0023", "0024"],
    "Accounts, administration and notifications": ["0025", "0026", "0027", "0028", "0029", "0053", "0196"],
    "Price checks": ["0050", "0055", "0071", "0072", "0092", "0193"],
    "The ledger and its proof": ["0051", "0058", "0065", "0068", "0070", "0080", "0100", "0195"],
    "Paid access": ["0130", "0131", "0132", "0133", "0150", "0151", "0152", "0153"],
}  # fmt: skip

SUMMARY_LENGTH = 160


def records() -> dict[str, Path]:
    """Every decision record by its number."""
    return {path.name[:4]: path for path in sorted(DECISIONS.glob("[0-9][0-9][0-9][0-9]-*.md"))}


def title(text: str) -> str:
    """The record's title: its first heading without the number ("# 0120 One way..." or "# 0013: A byte...")."""
    heading = text.splitlines()[0]
    return re.sub(r"^#\s*\d{4}:?\s*", "", heading).strip()


def summary(text: str) -> str:
    """One line: the first sentence of the record's Decision section, without Markdown emphasis or list marks,
    cut at a word before SUMMARY_LENGTH characters."""
    decision = text.split("\n## Decision", 1)[1].split("\n## ", 1)[0]
    paragraph = " ".join(line.strip() for line in decision.strip().split("\n\n", 1)[0].splitlines()[:4])
    paragraph = re.sub(r"^[-*]\s+", "", paragraph).replace("**", "")
    sentence = re.split(r"(?<=\.)\s", paragraph, maxsplit=1)[0]
    if len(sentence) <= SUMMARY_LENGTH:
        return sentence
    cut = sentence[:SUMMARY_LENGTH].rsplit(" ", 1)[0]
    if cut.count("`") % 2:  # never leave a code span open
        cut = cut[: cut.rindex("`")].rstrip()
    return cut + " …"


def render() -> str:
    """The index's Markdown."""
    found = records()
    lines = [
        "# Decision records",
        "",
        "Why the code is as it is, one record per choice a newcomer would question (context, decision,",
        "consequences). This index is written by `python3 tools/decision_index.py` from the records; a test fails",
        "while a record is missing from it.",
        "",
    ]
    listed = {number for numbers in TOPICS.values() for number in numbers}
    topics = {**TOPICS, "Not yet filed under a topic": [n for n in found if n not in listed]}
    for topic, numbers in topics.items():
        if not numbers:
            continue
        lines += [f"## {topic}", "", "| No. | Decision | In one line |", "| --- | --- | --- |"]
        for number in numbers:
            path = found[number]
            text = path.read_text(encoding="utf-8")
            name, line = (part.replace("|", "\\|") for part in (title(text), summary(text)))
            lines.append(f"| {number} | [{name}]({path.name}) | {line} |")
        lines.append("")
    return "\n".join(lines)


def misfiled() -> list[str]:
    """Topic entries with no record, and records filed under two topics."""
    listed = [number for numbers in TOPICS.values() for number in numbers]
    return sorted(set(listed) - set(records())) + sorted({n for n in listed if listed.count(n) > 1})


if __name__ == "__main__":
    if problems := misfiled():
        sys.exit(f"TOPICS lists these numbers with no record, or twice: {', '.join(problems)}")
    (DECISIONS / "README.md").write_text(render(), encoding="utf-8")
