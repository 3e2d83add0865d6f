"""What a guide's scope means for the plan: its meaning, how it is operated, the next step, and what today's
phase needs against what the next one adds. Translated with the rest of the shop; no figures here."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .enums import Scope

__all__ = ["PHASES", "SCOPE_TEXTS", "Phases", "ScopeText"]


@dataclass(frozen=True)
class ScopeText:
    """What a scope means for the plan, and the next step it leads to."""

    meaning: Promise
    operations: Promise
    next_step: Promise


SCOPE_TEXTS: dict[Scope, ScopeText] = {
    Scope.PROOF_OF_CONCEPT: ScopeText(
        meaning=_(
            "A proof of concept answers one question: does the approach work on your data at all? It runs on one "
            "configuration, with a small representative model and light load, and it may be thrown away."
        ),
        operations=_(
            "One person can operate it. Write down what success means before starting, and stop when it is "
            "reached or clearly out of reach; a shorter term is usually enough."
        ),
        next_step=_(
            "Start with a small sample of real data and one measured run; its numbers decide whether a pilot is "
            "worth planning."
        ),
    ),
    Scope.PILOT: ScopeText(
        meaning=_(
            "A pilot runs with real data or real users in limited numbers. Its job is to produce the measurements "
            "that size production: load, latency or run time, memory peaks, error rate."
        ),
        operations=_(
            "Decide who operates what: which parts we run, which parts your team runs, and who is called when "
            "something fails. Keep the setup simple enough to change the model or the card without rebuilding it."
        ),
        next_step=_(
            "Send the expected load, a sample of the data and the preferred way to reach the service; we answer "
            "with a configuration and the terms it needs."
        ),
    ),
    Scope.PRODUCTION: ScopeText(
        meaning=_(
            "Production is what the business depends on: the load is real, peaks happen, and an outage has a cost. "
            "Size on measured peaks from the pilot, not on estimates alone."
        ),
        operations=_(
            "Plan updates, model changes, data refreshes and key rotation as separate, scheduled tasks, each with a "
            "way back. Fixed terms end on schedule: renew before the end, never after."
        ),
        next_step=_(
            "Bring the pilot's measurements to the quote request; with them we can commit to a configuration rather "
            "than an estimate."
        ),
    ),
}


@dataclass(frozen=True)
class Phases:
    """What the scope needs today, and what the next phase will add."""

    today: tuple[Promise, ...]
    next_phase: tuple[Promise, ...]


PHASES: dict[Scope, Phases] = {
    Scope.PROOF_OF_CONCEPT: Phases(
        today=(
            _("one configuration and a short term"),
            _("a small sample of real data"),
            _("a written success criterion and one measured run"),
        ),
        next_phase=(
            _("a pilot with real data or users in limited numbers"),
            _("measurements of load, latency or run time, memory peaks and errors"),
            _("a decision on who operates what"),
        ),
    ),
    Scope.PILOT: Phases(
        today=(
            _("the configuration the proof of concept sized"),
            _("real data or users, in limited numbers"),
            _("the measurements that size production"),
        ),
        next_phase=(
            _("capacity for the measured peaks, not the average"),
            _("scheduled updates, each with a way back"),
            _("renewal of the term before it ends"),
        ),
    ),
    Scope.PRODUCTION: Phases(
        today=(
            _("capacity for the measured peaks, not the average"),
            _("scheduled updates, each with a way back"),
            _("key rotation and renewal of the term before it ends"),
        ),
        next_phase=(_("the next model or card, tested in a pilot of its own before it replaces this one"),),
    ),
}
