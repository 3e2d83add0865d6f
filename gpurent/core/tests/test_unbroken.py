"""The `unbroken_span` filter: a reference in a translated heading moves to the next line whole (decision 0435)."""

from django.template import Context, Template
from django.utils import translation


def test_a_reference_in_a_translated_heading_is_one_escaped_unbroken_span():
    template = Template(
        "{% load i18n shop %}{% blocktranslate with ref=ref|unbroken_span %}Order {{ ref }}{% endblocktranslate %}"
    )
    with translation.override("vi"):
        html = template.render(Context({"ref": "R-EQS6-HG1Z"}))
    assert html == 'Đơn hàng <span class="unbroken">R-EQS6-HG1Z</span>'
    assert Template("{% load shop %}{{ ref|unbroken_span }}").render(Context({"ref": "<b>"})) == (
        '<span class="unbroken">&lt;b&gt;</span>'
    )
