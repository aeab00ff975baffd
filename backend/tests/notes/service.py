"""The notes domain's rule: a note is kept once its transaction commits (in this process's memory: a test domain
has no table)."""

from tests.notes.events import NoteTaken

HEARD: list[str] = []


def keep(note: NoteTaken) -> None:
    HEARD.append(note.text)
