"""The app's notion of "now" for rules that depend on elapsed time (the ideas' correction window).

Real time plus an offset: tests move time forward with `advance` instead of sleeping.
"""

from datetime import datetime, timedelta
from typing import Annotated

from fastapi import Depends

from tradeideas.core.deps import component
from tradeideas.db import utcnow


class Clock:
    def __init__(self) -> None:
        self.offset = timedelta(0)

    def now(self) -> datetime:
        return utcnow() + self.offset

    def advance(self, by: timedelta) -> None:
        self.offset += by

    def reset(self) -> None:
        self.offset = timedelta(0)


AppClock = Annotated[Clock, Depends(component(Clock))]
