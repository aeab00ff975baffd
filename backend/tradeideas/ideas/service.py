"""The ideas domain's rules, one module per concern: `queries` (reading and presenting), `commands`
(changes, each publishing its event) and `pages` (the cached JSON list page). Routers use this module."""

from tradeideas.ideas.commands import (
    create_idea,
    delete_idea,
    mark_seen,
    recount_unseen,
    set_status,
    update_idea,
)
from tradeideas.ideas.pages import IdeaPages
from tradeideas.ideas.queries import (
    IDEA_NOT_FOUND,
    Viewer,
    get_idea,
    list_revisions,
    normalise_status,
    present_one,
    viewer_of,
)

__all__ = [
    "IDEA_NOT_FOUND",
    "IdeaPages",
    "Viewer",
    "create_idea",
    "delete_idea",
    "get_idea",
    "list_revisions",
    "mark_seen",
    "normalise_status",
    "present_one",
    "recount_unseen",
    "set_status",
    "update_idea",
    "viewer_of",
]
