"""A domain of the tests' own, made by following the README's recipe ("Adding a domain"): its folder (events,
router, `domain.py`) and one line in the list the app is built from, touching no other domain."""
