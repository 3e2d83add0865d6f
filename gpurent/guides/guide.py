"""A guide's identity: one catalog GPU × one workload × one scope, with its title and addresses."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from gpurent.catalog.models import GpuModel
from gpurent.core.templatetags.shop import sentence_case

from .enums import GuideWorkload, Scope
from .scenarios import SCENARIOS, WorkloadSpec

__all__ = ["Guide"]


@dataclass(frozen=True)
class Guide:
    """One guide page. Guides are not rows: there is one for every GPU on sale, workload and scope."""

    gpu: GpuModel
    workload: GuideWorkload
    scope: Scope

    @property
    def spec(self) -> WorkloadSpec:
        return SCENARIOS[self.workload]

    @property
    def fields(self) -> dict[str, str]:
        """The estimator fields of this guide's scope."""
        return self.spec.fields_for(self.scope)

    @property
    def preset(self) -> str:
        return self.fields["preset"]

    @property
    def title(self) -> str:
        """ "A100 80GB for vision-model fine-tuning: proof of concept". Upper-cased first: a language that puts
        the workload first (Turkish: "görsel model fine-tuning için …") still starts the heading with a capital."""
        return sentence_case(
            _("%(gpu)s for %(workload)s: %(scope)s")
            % {
                "gpu": self.gpu.name,
                "workload": self.workload.label,
                "scope": self.scope.label,
            }
        )

    @property
    def url(self) -> str:
        return reverse("guides:detail", args=[self.gpu.slug, self.workload.value, self.scope.value])

    @property
    def estimator_url(self) -> str:
        """The estimator, prefilled with this guide's workload (`/estimate/` reads its fields from the query)."""
        return f"{reverse('sizing:estimate')}?{urlencode(self.fields)}"
