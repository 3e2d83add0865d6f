"""`/api/v1/estimates`: memory estimates."""

from ninja import Router

router = Router(tags=["estimates"])
