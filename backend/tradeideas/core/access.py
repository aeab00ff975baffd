"""Which educators' open ideas a reader may see: the value the access rule (`tradeideas.access`) answers with.

A plain value in the foundation, so the domains that filter by it (ideas, chat, push) need not know where it comes
from: grants, plans and Stripe live in the billing domain.
"""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EducatorAccess:
    """Every educator (`everything`), or only those in `educators`; `any` is whether anything is open (the
    chat rooms open with any grant)."""

    everything: bool
    educators: frozenset[int] = frozenset()

    def opens(self, educator_id: int) -> bool:
        return self.everything or educator_id in self.educators

    @property
    def any(self) -> bool:
        return self.everything or bool(self.educators)


FULL_ACCESS = EducatorAccess(everything=True)
NO_ACCESS = EducatorAccess(everything=False)
