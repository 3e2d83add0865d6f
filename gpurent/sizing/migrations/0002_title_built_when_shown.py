"""A saved estimate's title is stored only when the customer typed it; the shop's own title ("llama-3.1-70b ·
serving · 1 card") is built when shown, in the reader's language (`SavedEstimate.title_text`).

Forward: a stored title the shop built (the model's name, then two more " · " parts: the workload and the cards, in
whatever language the page had at saving time) is emptied; any other title is kept as it is. Backward: an empty
title is written again as the shop's English title, as the previous release stored it. The workloads' English
short labels are copied here: a migration does not follow later edits of the app's code.
"""

from django.db import migrations, models

SEPARATOR = " · "
MAX_LENGTH = 200
# gpurent.sizing.workloads.WORKLOAD_KINDS' short labels, in English, as of this migration.
SHORT_LABELS = {
    "inference": "serving",
    "full_finetune": "full fine-tuning",
    "lora": "LoRA",
    "qlora": "QLoRA",
    "diffusion": "image generation",
    "vision_finetune": "vision fine-tuning",
}


def _model_name(inputs):  # type: ignore[no-untyped-def]
    model = inputs.get("model") if isinstance(inputs, dict) else None
    return str(model.get("name", "")) if isinstance(model, dict) else ""


def shop_built(title, inputs):  # type: ignore[no-untyped-def]
    """Whether `title` is one the shop built from `inputs` (in any language, possibly cut at the column's length)."""
    name = _model_name(inputs)
    if not name or not title.startswith(name + SEPARATOR):
        return False
    rest = title[len(name) + len(SEPARATOR) :]
    return rest.count(SEPARATOR) == 1 or len(title) == MAX_LENGTH


def english_title(inputs):  # type: ignore[no-untyped-def]
    parallel = inputs.get("parallel") or {}
    cards = int(parallel.get("cards", 1))
    workload = str(inputs.get("workload", ""))
    count = f"{cards} card" if cards == 1 else f"{cards} cards"
    return f"{_model_name(inputs)}{SEPARATOR}{SHORT_LABELS.get(workload, workload)}{SEPARATOR}{count}"[:MAX_LENGTH]


def empty_built_titles(apps, schema_editor):  # type: ignore[no-untyped-def]
    SavedEstimate = apps.get_model("sizing", "SavedEstimate")  # noqa: N806 - the model, named as its class
    built = [
        pk
        for pk, title, inputs in SavedEstimate.objects.exclude(title="").values_list("pk", "title", "inputs").iterator()
        if shop_built(title, inputs)
    ]
    for start in range(0, len(built), 500):
        SavedEstimate.objects.filter(pk__in=built[start : start + 500]).update(title="")


def write_english_titles(apps, schema_editor):  # type: ignore[no-untyped-def]
    SavedEstimate = apps.get_model("sizing", "SavedEstimate")  # noqa: N806 - the model, named as its class
    for estimate in SavedEstimate.objects.filter(title="").only("pk", "inputs").iterator():
        SavedEstimate.objects.filter(pk=estimate.pk).update(title=english_title(estimate.inputs))


class Migration(migrations.Migration):
    dependencies = [
        ("sizing", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="savedestimate",
            name="title",
            field=models.CharField(blank=True, max_length=200, verbose_name="title"),
        ),
        migrations.RunPython(empty_built_titles, write_english_titles, elidable=True),
    ]
