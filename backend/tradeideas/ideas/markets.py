"""Which market a pair belongs to: one pure function shared by seeding, legacy rows and list filters.

Spec §5: an explicit market wins; pairs with crypto symbols or stablecoins are Crypto; indices,
metals, oil, the dollar index, known currency pairs and bare 3-letter currency codes are Forex;
anything else is Crypto. Spec §7: SPX / SP500 pairs are listed under Forex, never under Crypto.
"""

import re
from typing import Literal

Market = Literal["forex", "crypto"]

FOREX_CODES = frozenset({"USD", "EUR", "GBP", "JPY", "AUD", "NZD", "CAD", "CHF"})
# Further fiat codes seen in currency pairs (USD/TRY, EUR/SEK ...).
OTHER_FIAT = frozenset({"SGD", "HKD", "SEK", "NOK", "DKK", "MXN", "ZAR", "TRY", "CNH", "CNY", "PLN", "HUF", "CZK"})
FIAT = FOREX_CODES | OTHER_FIAT

CRYPTO = frozenset(
    {
        "BTC", "XBT", "ETH", "USDT", "USDC", "BUSD", "DAI", "TUSD", "FDUSD", "USDD", "USDE", "PYUSD",
        "SOL", "XRP", "ADA", "DOGE", "BNB", "DOT", "AVAX", "MATIC", "POL", "LTC", "LINK", "TRX", "SHIB",
        "TON", "ATOM", "XLM", "UNI", "BCH", "ETC", "NEAR", "APT", "ARB", "OP", "PEPE", "WBTC", "XMR",
        "FIL", "ICP", "SUI", "SEI", "INJ", "AAVE", "HBAR", "VET", "ALGO", "FTM", "SAND", "MANA", "WIF",
        "BONK", "JUP", "TIA", "RNDR", "RENDER", "GRT", "MKR", "CRV", "LDO", "STX", "IMX", "KAS", "XTZ",
    }
)  # fmt: skip

INDICES = frozenset(
    {
        "SPX", "SP500", "US500", "SPX500", "NAS100", "NAS", "NDX", "US100", "USTEC", "US30", "DJI", "DJ30",
        "DOW", "DAX", "GER40", "GER30", "DE40", "DE30", "UK100", "FTSE", "JP225", "JPN225", "NIKKEI",
        "HK50", "AUS200", "FRA40", "CAC", "CAC40", "EU50", "STOXX50", "ESTX50", "VIX", "US2000", "RUT",
    }
)  # fmt: skip
METALS = frozenset({"XAU", "XAG", "XPT", "XPD", "GOLD", "SILVER", "COPPER"})
ENERGY = frozenset({"WTI", "BRENT", "USOIL", "UKOIL", "OIL", "XTI", "XBR", "NGAS", "NATGAS"})
DOLLAR_INDEX = frozenset({"DXY", "USDX"})
FOREX_INSTRUMENTS = INDICES | METALS | ENERGY | DOLLAR_INDEX

_SPLIT = re.compile(r"[^A-Z0-9]+")


def is_spx_pair(pair: str) -> bool:
    """Spec §7: pairs containing spx or sp500 are excluded from Crypto and listed as Forex."""
    compact = pair.lower()
    return "spx" in compact or "sp500" in compact


def _tokens(pair: str) -> list[str]:
    return [t for t in _SPLIT.split(pair.upper()) if t]


def _split_compact(token: str, known: frozenset[str]) -> tuple[str, str] | None:
    """Split a separator-less symbol such as BTCUSDT or EURUSD where one side is a known code."""
    if len(token) == 6 and token[:3] in FIAT and token[3:] in FIAT:
        return token[:3], token[3:]  # USDCAD is USD/CAD, not USDC/AD
    for size in range(len(token) - 2, 1, -1):
        head, tail = token[:size], token[size:]
        if head in known or tail in known:
            return head, tail
    return None


def classify_market(pair: str, explicit_market: str | None = None) -> Market:
    """'forex' or 'crypto' for a pair; an explicit market (any case) wins."""
    if explicit_market:
        explicit = explicit_market.strip().lower()
        if explicit in ("forex", "crypto"):
            return "forex" if explicit == "forex" else "crypto"
    if is_spx_pair(pair):
        return "forex"
    tokens = _tokens(pair)
    if not tokens:
        return "crypto"
    if len(tokens) == 1 and tokens[0] not in CRYPTO | FIAT | FOREX_INSTRUMENTS:
        split = _split_compact(tokens[0], CRYPTO | FIAT | FOREX_INSTRUMENTS)
        if split:
            tokens = list(split)
    if any(t in CRYPTO for t in tokens):
        return "crypto"
    if any(t in FOREX_INSTRUMENTS for t in tokens):
        return "forex"
    if all(t in FIAT for t in tokens):
        return "forex"  # a currency pair (EUR/USD) or a bare code (USD)
    return "crypto"


def listing_market(pair: str, market_type: str) -> Market:
    """The market an idea is listed under: its explicit market, except SPX pairs always list as Forex."""
    return "forex" if is_spx_pair(pair) else classify_market(pair, market_type)
