"""Which educators' open ideas a reader may see: the value the access rule (`tradeideas.access`) answers with.

A plain value in the foundation, so the domains that filter by it (ideas, chat, push) need not know where it comes
from: grants, plans and Stripe live in the billing domain.
"""

from dataclasses import dataclass

# The scope of what any grant opens rather than one educator: the chat rooms (decision 0153). No account has id 0,
# so it is never an educator's id.
ANY_GRANT = 0


@dataclass(frozen=True, slots=True)
class EducatorAccess:
    """Every educator (`everything`), or only those in `educators`; `any` is whether anything is open (the
    chat rooms open with any grant)."""

    everything: bool
    educators: frozenset[int] = frozenset()

    def opens(self, educator_id: int) -> bool:
        """Whether this access opens the educator's open ideas, or with `ANY_GRANT` the chat rooms."""
        if educator_id == ANY_GRANT:
            return self.any
        return self.everything or educator_id in self.educators

    def scopes(self) -> list[int]:
        """The scopes this access opens when it does not open `everything`: its educators, and `ANY_GRANT` if any."""
        return sorted(self.educators | {ANY_GRANT}) if self.educators else []

    @property
    def any(self) -> bool:
        return self.everything or bool(self.educators)


FULL_ACCESS = EducatorAccess(everything=True)
NO_ACCESS = EducatorAccess(everything=False)
