"""Errors of the crypto foundations: pairs, addresses, rates and receiving addresses.

Codes are part of the public API (DESIGN §11.1): never rename one. None of these is replayable: each says
something about the request or the shop's set-up at that moment, so an idempotent request that failed this way
forgets its key and may be retried (with another pair, a valid address, or once a fresh rate exists).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError

__all__ = ["InvalidAddress", "NoReceivingAddress", "RateUnavailable", "UnsupportedPair"]


class UnsupportedPair(ApplicationError):
    """An asset without its network, or an asset/network combination the shop does not accept."""

    code = "unsupported_pair"
    status = 422
    replayable = False
    default_message = _("This asset and network combination is not accepted.")


class InvalidAddress(ApplicationError):
    """An address that is not valid on the named network (format, version, checksum)."""

    code = "invalid_address"
    status = 422
    replayable = False
    default_message = _("This is not a valid address for the network.")


class RateUnavailable(ApplicationError):
    """No exchange rate for the asset, or only one older than the allowed age: nothing is quoted."""

    code = "rate_unavailable"
    status = 503
    replayable = False
    default_message = _("No current exchange rate is available for this asset. Try again later.")


class NoReceivingAddress(ApplicationError):
    """No pool address is free and no shared address can take a unique amount on the network."""

    code = "payments_unavailable"
    status = 503
    replayable = False
    default_message = _("Payments on this network are unavailable right now. Try another network or try later.")
