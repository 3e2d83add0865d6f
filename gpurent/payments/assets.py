"""The accepted asset/network pairs, and exact arithmetic between USD cents and crypto quote units.

A symbol alone is never a pair: USDT exists on Ethereum and on Tron, with different contracts, and funds sent
on the wrong network are lost (DESIGN §5, payments_security §4.2). Every amount of crypto in the shop is an
integer of the pair's *quote unit*, 10^-quote_decimals of the asset; the chain's own base unit (satoshi, wei,
sun, lamport) is `10^-chain_decimals`, and `chain_units` converts. No float ever enters: every helper refuses
one with `TypeError`, and the arithmetic is done on integers from the rate's exact ratio, so nothing rounds
except where the rule says (crypto quoted rounded **up**, USD created rounded **down**).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.utils.translation import gettext

from gpurent.core.money import Usd

from .errors_crypto import UnsupportedPair
from .networks import all_networks

__all__ = [
    "ASSETS",
    "MAX_UNITS",
    "NETWORKS",
    "PAIRS",
    "Pair",
    "chain_units",
    "format_units",
    "pair_from_key",
    "pair_get",
    "pairs_for_choice",
    "parse_units",
    "quote_units",
    "required_confirmations",
    "usd_value",
]

# The largest amount a PositiveBigIntegerField (a signed BIGINT on PostgreSQL) holds.
MAX_UNITS = 2**63 - 1


@dataclass(frozen=True, slots=True)
class Pair:
    """One asset on one network, with everything needed to quote, show and check a payment.

    Attributes:
        asset: the symbol, upper case ("USDT").
        network: the network id, lower case ("tron"); the API takes and shows this id.
        network_label: the network's name for people ("Tron").
        chain_decimals: decimals of the chain's base unit (USDT on Tron: 6, i.e. 1 USDT = 10^6 base units).
        quote_decimals: decimals of the quote unit (≤ 9 and ≤ chain_decimals); amounts are integers of it.
        token_contract: the token's contract address where the asset is a token, else None.
        token_standard: the token's standard for tokens ("ERC-20", "TRC-20", "SPL"), else None.
        confirmations: the default number of confirmations before a payment counts (see
            `required_confirmations` for the operator's override).
        needs_memo: whether a payment must carry a memo/tag to be attributed (none does yet).
    """

    asset: str
    network: str
    network_label: str
    chain_decimals: int
    quote_decimals: int
    token_contract: str | None
    token_standard: str | None
    confirmations: int
    needs_memo: bool

    def __post_init__(self) -> None:
        if not 0 <= self.quote_decimals <= min(9, self.chain_decimals):
            raise ValueError(f"{self.key}: quote_decimals must be within 0..min(9, chain_decimals)")
        if (self.token_contract is None) != (self.token_standard is None):
            raise ValueError(f"{self.key}: a token has both a contract and a standard")

    @property
    def key(self) -> str:
        """A stable string for forms and logs: "USDT/tron"."""
        return f"{self.asset}/{self.network}"

    @property
    def label(self) -> str:
        """How people see the pair, always with its network: "USDT on Tron (TRC-20)"."""
        suffix = f" ({self.token_standard})" if self.token_standard else ""
        return f"{self.asset} on {self.network_label}{suffix}"

    @property
    def display_label(self) -> str:
        """The label in the reader's language ("USDT en Tron (TRC-20)"); `label` stays English for records."""
        suffix = f" ({self.token_standard})" if self.token_standard else ""
        return gettext("%(asset)s on %(network)s") % {"asset": self.asset, "network": self.network_label} + suffix

    @property
    def is_token(self) -> bool:
        return self.token_contract is not None


# Each network's module lists its pairs as data (decimals, token contract and standard) with the network's default
# confirmations (DESIGN §5, payments_security §4.1 and §4.3); the order is the registry's. Operators may override
# confirmations per network with PAYMENTS_CONFIRMATIONS.
PAIRS: tuple[Pair, ...] = tuple(
    Pair(
        spec.asset,
        network.id,
        network.label,
        spec.chain_decimals,
        spec.quote_decimals,
        spec.token_contract,
        spec.token_standard,
        network.confirmations,
        spec.needs_memo,
    )
    for network in all_networks()
    for spec in network.pairs
)

_BY_KEY: dict[tuple[str, str], Pair] = {(pair.asset, pair.network): pair for pair in PAIRS}

# Symbols in first-listed order, and network ids with their names, for choices and validation.
ASSETS: tuple[str, ...] = tuple(dict.fromkeys(pair.asset for pair in PAIRS))
NETWORKS: dict[str, str] = {pair.network: pair.network_label for pair in PAIRS}


def pair_get(asset: str, network: str | None) -> Pair:
    """The pair for an asset symbol and a network id, both case-insensitive ("usdt", "Tron").

    Raises:
        UnsupportedPair: the network is missing (a symbol alone is ambiguous), or the combination is not one
            accepted; the message lists what is accepted for that asset.
    """
    symbol = asset.strip().upper() if isinstance(asset, str) else ""
    net = network.strip().lower() if isinstance(network, str) else ""
    found = _BY_KEY.get((symbol, net))
    if found is not None:
        return found
    options = [pair for pair in PAIRS if pair.asset == symbol]
    if not options:
        accepted = ", ".join(pair.label for pair in PAIRS)
        raise UnsupportedPair(f"{symbol or 'This asset'} is not accepted. Accepted: {accepted}.")
    choices = " or ".join(_network_phrase(pair) for pair in options)
    if not net:
        raise UnsupportedPair(f"Choose the network for {symbol}: {choices}.")
    raise UnsupportedPair(f"{symbol} is not accepted on {NETWORKS.get(net, net)}. Use {choices}.")


def _network_phrase(pair: Pair) -> str:
    suffix = f" ({pair.token_standard})" if pair.token_standard else ""
    return f"{pair.network_label}{suffix} (network “{pair.network}”)"


def pair_from_key(key: str) -> Pair:
    """The pair for a `Pair.key` such as "USDT/tron" (the value of a form choice).

    Raises:
        UnsupportedPair: as `pair_get`.
    """
    asset, _slash, network = key.partition("/") if isinstance(key, str) else ("", "", "")
    return pair_get(asset, network or None)


def pairs_for_choice() -> list[tuple[str, str]]:
    """(value, label) choices for a form: [("BTC/bitcoin", "BTC on Bitcoin"), …, ("USDT/tron", "USDT on Tron
    (TRC-20)"), …], in the fixed order of `PAIRS`; the labels in the active language (a form calls this when it
    renders)."""
    return [(pair.key, pair.display_label) for pair in PAIRS]


def required_confirmations(pair: Pair) -> int:
    """Confirmations before a payment on the pair's network counts: `PAYMENTS_CONFIRMATIONS[network]` if the
    operator set it, else the pair's default."""
    overrides: dict[str, int] = getattr(settings, "PAYMENTS_CONFIRMATIONS", {})
    value = overrides.get(pair.network, pair.confirmations)
    if type(value) is not int or value < 1:
        raise ValueError(f"PAYMENTS_CONFIRMATIONS[{pair.network!r}] must be a positive integer")
    return value


# --- exact money arithmetic ------------------------------------------------------------------------------------


def _rate_ratio(rate_usd: Decimal) -> tuple[int, int]:
    """The rate (USD per one whole coin) as an exact fraction numerator/denominator, both positive."""
    if not isinstance(rate_usd, Decimal):
        raise TypeError(f"a rate is a Decimal, got {type(rate_usd).__name__}")
    if not rate_usd.is_finite() or rate_usd <= 0:
        raise ValueError(f"a rate must be a positive finite number, got {rate_usd}")
    return rate_usd.as_integer_ratio()


def _check_units(units: int) -> None:
    # bool is an int subclass; a float or Decimal here is a bug in a money path, never a rounding choice.
    if type(units) is not int:
        raise TypeError(f"crypto amounts are integer quote units, got {type(units).__name__}")
    if not 0 <= units <= MAX_UNITS:
        raise ValueError(f"quote units out of range: {units}")


def quote_units(usd: Usd, rate_usd: Decimal, pair: Pair) -> int:
    """The crypto amount, in quote units, that pays `usd` at `rate_usd`, rounded **up** to the quote unit.

    units = ceil(cents × 10^q / (100 × rate)), computed on integers, so `usd_value(units) ≥ usd` and
    `usd_value(units − 1) < usd`: the payer never underpays through rounding, and overpays by less than one
    quote unit's value.

    Raises:
        TypeError: `usd` is not a Usd or `rate_usd` is not a Decimal (a float, say).
        ValueError: the rate is not positive and finite, the amount is negative, or the result does not fit
            a BIGINT.
    """
    if not isinstance(usd, Usd):
        raise TypeError(f"quote_units takes Usd, got {type(usd).__name__}")
    if usd.cents < 0:
        raise ValueError("cannot quote a negative amount")
    numerator, denominator = _rate_ratio(rate_usd)
    units = -(-(usd.cents * 10**pair.quote_decimals * denominator) // (100 * numerator))
    if units > MAX_UNITS:
        raise ValueError(f"{usd.to_api()} USD at {rate_usd} is beyond what an amount column holds")
    return units


def usd_value(units: int, rate_usd: Decimal, pair: Pair) -> Usd:
    """The USD value of `units` quote units at `rate_usd`, rounded **down** to the cent (money is created
    rounded down: DESIGN §5).

    Raises:
        TypeError: `units` is not an int or `rate_usd` is not a Decimal.
        ValueError: negative or oversized units, or a rate that is not positive and finite.
    """
    _check_units(units)
    numerator, denominator = _rate_ratio(rate_usd)
    return Usd(units * numerator * 100 // (denominator * 10**pair.quote_decimals))


def chain_units(units: int, pair: Pair) -> int:
    """Quote units in the chain's base unit (wei, satoshi, sun, lamport): exact, since q ≤ chain decimals."""
    _check_units(units)
    return units * 10 ** (pair.chain_decimals - pair.quote_decimals)


def format_units(units: int, pair: Pair) -> str:
    """The API and page form of an amount: a decimal string with exactly `quote_decimals` places.

    format_units(150000, BTC) == "0.00150000"; format_units(1_000_000, USDT/tron) == "1.000000".

    Raises:
        TypeError: `units` is not an int.
        ValueError: negative or oversized units.
    """
    _check_units(units)
    if pair.quote_decimals == 0:
        return str(units)
    whole, part = divmod(units, 10**pair.quote_decimals)
    return f"{whole}.{part:0{pair.quote_decimals}d}"


# ASCII digits only: str.isdigit() and Decimal() also take "²" or Arabic-Indic digits.
_AMOUNT = re.compile(r"(?P<whole>[0-9]{1,30})(?:\.(?P<part>[0-9]{1,40}))?", re.ASCII)


def parse_units(text: str, pair: Pair) -> int:
    """Parse a decimal amount of the asset ("0.0015", "12", "1.500000") into quote units, exactly.

    Surrounding whitespace is ignored. Digits past the quote precision are refused unless they are all
    zeros ("1.5000000000" is 1.5 exactly, as explorers print it with the chain's 18 decimals); a nonzero
    digit there would have to be rounded, and an amount someone typed is never rounded silently.

    Raises:
        TypeError: `text` is not a string.
        ValueError: not a plain non-negative decimal (sign, exponent, junk, empty), a nonzero digit past the
            quote precision, or beyond what a BIGINT holds.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_units takes a string, got {type(text).__name__}")
    match = _AMOUNT.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"not an amount of {pair.asset}: {text!r}")
    part = (match["part"] or "").rstrip("0")
    if len(part) > pair.quote_decimals:
        raise ValueError(f"{pair.asset} amounts have at most {pair.quote_decimals} decimals: {text!r}")
    units = int(match["whole"]) * 10**pair.quote_decimals + int(part.ljust(pair.quote_decimals, "0") or "0")
    if units > MAX_UNITS:
        raise ValueError(f"amount out of range: {text!r}")
    return units
