"""The vocabularies of guides and quote requests."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class GuideWorkload(models.TextChoices):
    """The five workloads a guide is written for; each maps to one estimator workload (see `scenarios.py`).

    - `llm-serving`: a language model answering requests (inference behind an endpoint).
    - `lora-finetuning`: adapter fine-tuning of a language model (LoRA, or QLoRA on a 4-bit base).
    - `full-finetuning`: every weight of a language model is trained.
    - `image-generation`: a diffusion pipeline producing images.
    - `vision-finetuning`: a vision transformer trained on the customer's images.
    """

    LLM_SERVING = "llm-serving", _("LLM inference and serving")
    LORA_FINETUNING = "lora-finetuning", _("LoRA / QLoRA fine-tuning")
    FULL_FINETUNING = "full-finetuning", _("full fine-tuning")
    IMAGE_GENERATION = "image-generation", _("diffusion image generation")
    VISION_FINETUNING = "vision-finetuning", _("vision-model fine-tuning")


class Scope(models.TextChoices):
    """How far a project has come, which sets the model size and the load a guide assumes.

    - `proof-of-concept`: one person or a small team checks that the idea works at all, on sample data.
    - `pilot`: real users or real data, limited in number, with measurements that decide the next step.
    - `production`: the service or the training run the business depends on, with load and uptime targets.
    """

    PROOF_OF_CONCEPT = "proof-of-concept", _("proof of concept")
    PILOT = "pilot", _("pilot")
    PRODUCTION = "production", _("production")


class Endpoint(models.TextChoices):
    """How the customer wants to reach the workload once it runs."""

    SSH = "ssh", _("SSH access to the machine only")
    OPENAI_API = "openai_api", _("OpenAI-compatible HTTP API")
    CUSTOM_API = "custom_api", _("Custom HTTP API")
    BATCH = "batch", _("Batch jobs")
    NOTEBOOK = "notebook", _("Jupyter notebook")


class SupportLevel(models.TextChoices):
    """How much of the operating work the customer asks us to take on.

    - `self_managed`: the machine only.
    - `assisted`: we install the workload and hand it over.
    - `managed`: we operate it during the term.

    The labels are short so that a chosen one shows whole in a phone's select; the form's help text says what each
    means.
    """

    SELF_MANAGED = "self_managed", _("Self-managed")
    ASSISTED = "assisted", _("Assisted setup")
    MANAGED = "managed", _("Managed")


class QuoteStatus(models.TextChoices):
    """Where a quote request stands for the operators.

    - `new`: received, nobody has looked at it yet.
    - `in_review`: an operator is preparing an answer.
    - `answered`: an answer was sent to the contact email.
    - `closed`: nothing more to do (declined, withdrawn or turned into an order).
    """

    NEW = "new", _("Received")
    IN_REVIEW = "in_review", _("In review")
    ANSWERED = "answered", _("Answered")
    CLOSED = "closed", _("Closed")
