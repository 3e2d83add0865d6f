from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .terms import TERMS


@require_GET
def glossary_index(request: HttpRequest) -> HttpResponse:
    return render(request, "glossary/index.html", {"terms": TERMS})
