"""After-commit handlers can tell another process's events (delivered from the outbox) from this process's own."""

from datetime import date

from tradeideas.app import EVENTS
from tradeideas.core.events import EventBus, committed_elsewhere
from tradeideas.ideas.events import IdeaRecordChanged


def test_handlers_hear_where_the_events_were_committed() -> None:
    bus = EventBus(EVENTS)
    heard: list[tuple[str, bool]] = []
    bus.after_commit(IdeaRecordChanged, lambda event: heard.append(("one", committed_elsewhere())))
    bus.after_commit_batch(IdeaRecordChanged, lambda events: heard.append(("batch", committed_elsewhere())))
    event = IdeaRecordChanged(educator_id=3, days=[date(2026, 11, 26)])

    bus.local_commit([(1, event)])
    bus.delivered_batch([event])
    bus.committed_batch([event])
    assert heard == [("one", False), ("batch", False), ("one", True), ("batch", True), ("one", False), ("batch", False)]
    assert committed_elsewhere() is False
