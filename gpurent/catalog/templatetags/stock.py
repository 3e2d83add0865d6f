"""`{% stock_fact gpu %}`, `{% stock_warning gpu lots %}`, `{% if_in_stock gpu %}…{% endif_in_stock %}`,
`{% if_sold_out gpu %}…{% endif_sold_out %}` and `{% if_instead gpu other %}…{% endif_instead %}`: a GPU's stock,
as holes in a shared page (`shared_page` in the context), written at once otherwise (`catalog/stock_parts.py`,
decision 0425)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.html import format_html
from django.utils.safestring import SafeString

from gpurent.catalog import stock_parts

register = template.Library()


@register.simple_tag(takes_context=True)
def stock_fact(context: template.Context, gpu: Any) -> SafeString:
    if context.get("shared_page"):
        return format_html("<!--hole:stock:{}-->", int(gpu.pk))
    return stock_parts.stock_fact(gpu.stock_lots)


@register.simple_tag(takes_context=True)
def stock_warning(context: template.Context, gpu: Any, lots: int) -> SafeString:
    if context.get("shared_page"):
        return format_html("<!--hole:stock-warning:{}:{}-->", int(gpu.pk), int(lots))
    return stock_parts.stock_warning(gpu.stock_lots, lots)


class StockBlockNode(template.Node):
    def __init__(self, kind: str, gpu: FilterExpression, nodelist: NodeList) -> None:
        self.kind, self.gpu, self.nodelist = kind, gpu, nodelist

    def render(self, context: template.Context) -> str:
        gpu = self.gpu.resolve(context)
        if context.get("shared_page"):
            return f"<!--if:{self.kind}:{int(gpu.pk)}-->{self.nodelist.render(context)}<!--/if-->"
        return self.nodelist.render(context) if stock_parts.stock_shows(self.kind, gpu.stock_lots) else ""


def _block(kind: str) -> Any:
    def compile_block(parser: Parser, token: Token) -> StockBlockNode:
        bits = token.split_contents()
        if len(bits) != 2:
            raise template.TemplateSyntaxError(f"{bits[0]} takes one GPU")
        nodelist = parser.parse((f"end{bits[0]}",))
        parser.delete_first_token()
        return StockBlockNode(kind, parser.compile_filter(bits[1]), nodelist)

    return compile_block


register.tag("if_in_stock", _block("in-stock"))
register.tag("if_sold_out", _block("sold-out"))


class InsteadNode(template.Node):
    def __init__(self, gpu: FilterExpression, other: FilterExpression, nodelist: NodeList) -> None:
        self.gpu, self.other, self.nodelist = gpu, other, nodelist

    def render(self, context: template.Context) -> str:
        gpu, other = self.gpu.resolve(context), self.other.resolve(context)
        if context.get("shared_page"):
            return f"<!--if:instead:{int(gpu.pk)}:{int(other.pk)}-->{self.nodelist.render(context)}<!--/if-->"
        return self.nodelist.render(context) if stock_parts.instead_shows(gpu.stock_lots, other.stock_lots) else ""


@register.tag("if_instead")
def if_instead(parser: Parser, token: Token) -> InsteadNode:
    """`{% if_instead gpu other %}…{% endif_instead %}`: shown when `gpu` is sold out and `other` is in stock."""
    bits = token.split_contents()
    if len(bits) != 3:
        raise template.TemplateSyntaxError("if_instead takes two GPUs")
    nodelist = parser.parse(("endif_instead",))
    parser.delete_first_token()
    return InsteadNode(parser.compile_filter(bits[1]), parser.compile_filter(bits[2]), nodelist)
