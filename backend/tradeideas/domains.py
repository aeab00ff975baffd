"""The app's domains, in one list: each is its own folder with a `domain.py` declaring its `DOMAIN`
(`core.domain.Domain`: routers, events, own subscriptions). A new domain is its folder and one line here.

The order is the routers' order: FastAPI matches routes first to last, so the busiest (the idea lists, the event
stream) come first.
"""

from tradeideas.admin.domain import DOMAIN as ADMIN
from tradeideas.auth.domain import DOMAIN as AUTH
from tradeideas.billing.domain import DOMAIN as BILLING
from tradeideas.chat.domain import DOMAIN as CHAT
from tradeideas.core.domain import Domain
from tradeideas.desk.domain import DOMAIN as DESK
from tradeideas.ideas.domain import DOMAIN as IDEAS
from tradeideas.ledger.domain import DOMAIN as LEDGER
from tradeideas.media.domain import DOMAIN as MEDIA
from tradeideas.notifications.domain import DOMAIN as NOTIFICATIONS
from tradeideas.prices.domain import DOMAIN as PRICES
from tradeideas.profiles.domain import DOMAIN as PROFILES
from tradeideas.push.domain import DOMAIN as PUSH
from tradeideas.realtime.domain import DOMAIN as REALTIME
from tradeideas.system.domain import DOMAIN as SYSTEM
from tradeideas.trackrecords.domain import DOMAIN as TRACK_RECORDS

DOMAINS: tuple[Domain, ...] = (
    IDEAS,
    REALTIME,
    SYSTEM,
    AUTH,
    CHAT,
    PROFILES,
    NOTIFICATIONS,
    MEDIA,
    PUSH,
    TRACK_RECORDS,
    DESK,
    PRICES,
    ADMIN,
    LEDGER,
    BILLING,
)
