"""Every event says who receives it; an event about one user reaches only that user."""

from typing import Literal

import pytest

from tradeideas.core.events import ALL, ONE_USER, RECEIVERS, SERVER, DomainEvent, EventBus
from tradeideas.desk.events import JournalChanged
from tradeideas.ideas.events import IdeaDeleted, IdeasSeen
from tradeideas.runtime import EVENTS


def test_every_event_of_the_app_names_its_receivers() -> None:
    for event_class in EVENTS:
        assert event_class.__dict__.get("receivers") in RECEIVERS, f"{event_class.__name__} does not say itself"
    EventBus(EVENTS)  # the app's bus accepts them all


def test_an_event_that_does_not_say_who_receives_it_is_refused_at_start_up() -> None:
    class Forgetful(DomainEvent):
        type: Literal["test.forgetful"] = "test.forgetful"
        user_id: int

    with pytest.raises(TypeError, match="Forgetful must set `receivers`"):
        EventBus([Forgetful])

    class NoOne(DomainEvent):
        type: Literal["test.no-one"] = "test.no-one"
        receivers = ONE_USER

    with pytest.raises(TypeError, match="NoOne is for one user: it needs a `user_id` field"):
        EventBus([NoOne])


def test_audiences_follow_the_declared_receivers() -> None:
    assert IdeasSeen(user_id=42, forex=1, crypto=0, total=1).audience() == "42"
    assert JournalChanged(user_id=7, idea_id=None).audience() == "7"
    assert IdeaDeleted(id=1, market="forex", idea_type="Leverage").audience() == ALL
    assert {e.receivers for e in EVENTS if e.__name__ in ("UserChanged", "LoginLockedOut")} == {SERVER}
