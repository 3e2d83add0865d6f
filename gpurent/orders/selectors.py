"""Reads of orders, always scoped to their owner: another customer's order does not exist (404)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Prefetch, QuerySet, prefetch_related_objects

from gpurent.core.errors import NotFound

from .models import Order, OrderStatusChange

__all__ = ["order_get_for", "order_history", "order_list_for", "rental_extensions_attach", "rental_list_for"]


def order_list_for(owner: AbstractBaseUser) -> QuerySet[Order]:
    """The owner's orders, newest first, with their GPU model."""
    return Order.objects.filter(owner_id=owner.pk).select_related("gpu")


def rental_list_for(owner: AbstractBaseUser) -> QuerySet[Order]:
    """The owner's rentals, newest first: their orders less the extensions, which "My rentals" shows with the rental
    each extends (`rental_extensions_attach`), not as rentals of their own."""
    return order_list_for(owner).filter(extends__isnull=True)


def rental_extensions_attach(owner: AbstractBaseUser, rentals: list[Order]) -> list[Order]:
    """Load each of `rentals`' extensions (the owner's only, newest first, at most ORDERS_MAX_EXTENSIONS_PER_RENTAL
    each: decision 0353) into `rental.extensions.all()`, in one query for all of them; return the extensions."""
    prefetch_related_objects(rentals, Prefetch("extensions", queryset=order_list_for(owner)))
    return [extension for rental in rentals for extension in rental.extensions.all()]


def order_get_for(owner: AbstractBaseUser, ref: str) -> Order:
    """One of the owner's orders by reference.

    Raises:
        NotFound: no such order, or it belongs to someone else (the two are indistinguishable on purpose).
    """
    try:
        return order_list_for(owner).get(ref=ref.upper())
    except Order.DoesNotExist:
        raise NotFound() from None


def order_history(order: Order) -> QuerySet[OrderStatusChange]:
    """The order's status changes, oldest first."""
    return order.status_changes.all()
