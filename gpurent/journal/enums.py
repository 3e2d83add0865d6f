"""The closed vocabularies of the experiment journal (DESIGN §7)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Reproducibility(models.TextChoices):
    """What "the run reproduces" means for this run.

    - `exact`: a rerun with the same code, versions, parameters and seeds must give the same numbers.
    - `tolerance`: a rerun counts as equivalent when its numbers stay within the stated `tolerance`
      (e.g. "eval loss within ±0.002"); nondeterministic kernels make this the honest choice on GPUs.
    - `not_stated`: nobody said; a comparison of two such runs cannot tell variation from effect.
    """

    EXACT = "exact", _("Exact values")
    TOLERANCE = "tolerance", _("Equivalent within a stated tolerance")
    NOT_STATED = "not_stated", _("Not stated")


class Outcome(models.TextChoices):
    """How the run ended. A failure is a result too: an out-of-memory at a configuration tells where the
    limit is.

    - `completed`: the run finished and its measurements are final.
    - `oom`: the run stopped with an out-of-memory error at this configuration.
    - `failed`: the run stopped for another reason (`failure` says which).
    """

    COMPLETED = "completed", _("Completed")
    OOM = "oom", _("Out of memory")
    FAILED = "failed", _("Failed")


class Checkpoint(models.TextChoices):
    """Whether a checkpoint of the run was actually loaded back, the only proof that it is usable.

    - `none`: the run saved no checkpoint.
    - `saved_not_reloaded`: a checkpoint was written but never loaded back.
    - `reloaded`: a checkpoint was loaded back and the run (or an evaluation) continued from it.
    - `reload_failed`: loading the checkpoint back failed.
    """

    NONE = "none", _("No checkpoint")
    SAVED_NOT_RELOADED = "saved_not_reloaded", _("Saved, not reloaded")
    RELOADED = "reloaded", _("Saved and reloaded")
    RELOAD_FAILED = "reload_failed", _("Reload failed")


class Phase(models.TextChoices):
    """When in the run a measurement was taken; the two are kept apart because they differ.

    - `first`: the first iterations (or first request): compilation, autotuning, allocator growth, caches.
    - `steady`: after warm-up, the numbers the run settles at.
    """

    FIRST = "first", _("First run")
    STEADY = "steady", _("Steady state")
