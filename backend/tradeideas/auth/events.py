"""Events the auth domain publishes (server processes only: clients never receive them)."""

from typing import Literal

from tradeideas.auth.models import Role
from tradeideas.core.events import SERVER, DomainEvent


class UserChanged(DomainEvent):
    """A user's row or sessions changed: every process drops what it cached about them."""

    type: Literal["user.changed"] = "user.changed"
    receivers = SERVER
    user_id: int
    role: Role


class LoginLockedOut(DomainEvent):
    """A login was refused because an account or client address reached its failure limit (for the audit log).
    `email` and `client` are what the caller sent: any text."""

    type: Literal["auth.lockout"] = "auth.lockout"
    receivers = SERVER
    email: str
    client: str
    limit: Literal["account", "client"] = "account"


EVENTS = (UserChanged, LoginLockedOut)
