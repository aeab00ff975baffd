"""One way to hook a commit: SQLAlchemy's session events are listened to only by the event bus's hooks (0195)."""

import re
from pathlib import Path

import tradeideas

SESSION_LISTENER = re.compile(r"listens_for\(\s*(Async)?Session\b|event\.listen\(\s*(Async)?Session\b")


def test_only_the_buss_hooks_listen_to_session_events() -> None:
    package = Path(tradeideas.__file__).parent
    listening = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if SESSION_LISTENER.search(path.read_text(encoding="utf-8"))
    )
    assert listening == ["realtime/hooks.py"]
