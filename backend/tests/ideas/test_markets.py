"""Market classification (spec §5, §4 Forex codes, §7 SPX rule): one pure function, table-driven."""

import pytest

from tradeideas.ideas.markets import classify_market, listing_market


@pytest.mark.parametrize(
    ("pair", "explicit", "expected"),
    [
        # explicit market wins, any case
        ("BTC/USDT", "forex", "forex"),
        ("BTC/USDT", "FOREX", "forex"),
        ("EUR/USD", "Crypto", "crypto"),
        ("EUR/USD", "", "forex"),
        ("EUR/USD", "stocks", "forex"),  # unknown explicit value: fall back to the pair
        # crypto symbols and stablecoins
        ("BTC/USDT", None, "crypto"),
        ("BTCUSDT", None, "crypto"),
        ("ETH/BTC", None, "crypto"),
        ("eth-usdc", None, "crypto"),
        ("SOLUSDC", None, "crypto"),
        ("BTC/USD", None, "crypto"),
        ("DOGE/USD", None, "crypto"),
        ("XRP", None, "crypto"),
        ("BNB/BUSD", None, "crypto"),
        ("DAI/USD", None, "crypto"),
        ("ADAUSDT", None, "crypto"),
        # indices
        ("SPX", None, "forex"),
        ("SPX500", None, "forex"),
        ("SP500/USD", None, "forex"),
        ("SPX/USDT", None, "forex"),  # §7: pairs containing spx are never Crypto
        ("NAS100", None, "forex"),
        ("US30", None, "forex"),
        ("DAX", None, "forex"),
        ("GER40", None, "forex"),
        # metals, oil, dollar index
        ("XAU/USD", None, "forex"),
        ("XAUUSD", None, "forex"),
        ("XAGUSD", None, "forex"),
        ("GOLD", None, "forex"),
        ("SILVER", None, "forex"),
        ("WTI", None, "forex"),
        ("BRENT/USD", None, "forex"),
        ("USOIL", None, "forex"),
        ("UKOIL", None, "forex"),
        ("DXY", None, "forex"),
        # currency pairs and bare codes (§4: USD EUR GBP JPY AUD NZD CAD CHF)
        ("EUR/USD", None, "forex"),
        ("EURUSD", None, "forex"),
        ("gbp/jpy", None, "forex"),
        ("USDCAD", None, "forex"),  # not USDC + AD
        ("USDCHF", None, "forex"),
        ("AUD_NZD", None, "forex"),
        ("USD", None, "forex"),
        ("CHF", None, "forex"),
        ("USD/TRY", None, "forex"),
        # otherwise crypto
        ("XYZ/USD", None, "crypto"),
        ("NEWCOIN", None, "crypto"),
        ("", None, "crypto"),
    ],
)
def test_classify_market(pair: str, explicit: str | None, expected: str) -> None:
    assert classify_market(pair, explicit) == expected


@pytest.mark.parametrize(
    ("pair", "market_type", "expected"),
    [
        ("EUR/USD", "Forex", "forex"),
        ("BTC/USDT", "Crypto", "crypto"),
        ("SPX/USDT", "Crypto", "forex"),  # §7: Crypto excludes spx / sp500 pairs, Forex includes them
        ("sp500", "Crypto", "forex"),
        ("BTC/USDT", "Forex", "forex"),  # otherwise the explicit market stands
    ],
)
def test_listing_market(pair: str, market_type: str, expected: str) -> None:
    assert listing_market(pair, market_type) == expected
