"""Price-feed clients, one module per provider (`binance`, `oanda`, `dukascopy`) on a common base (`base`: one
HTTP answer read within its limits, the refusals that say to stay away) and common checks (`checks`: every candle
is checked before it is believed): Binance spot public market data, OANDA v20 candles and Dukascopy's historical
tick files, written from their public docs.

- Binance: `GET /api/v3/klines?symbol=BTCUSDT&interval=1m&startTime=<ms>&limit=1000` answers an array of arrays
  `[openTime, "open", "high", "low", "close", "volume", closeTime, ...]` (prices as strings, times in ms), oldest
  first, the last one still open. `GET /api/v3/exchangeInfo?symbol=X` checks a symbol. Errors are
  `{"code": -1121, "msg": "Invalid symbol."}` with a 4xx status; 429 (rate limit) and 418 (IP banned after
  ignoring 429s) carry `Retry-After` in seconds; 451 refuses the caller's location; 5xx are Binance's own.
- OANDA: `GET /v3/instruments/EUR_USD/candles?price=BA&granularity=M1&from=<unix>&count=5000` with
  `Authorization: Bearer <token>` and `Accept-Datetime-Format: UNIX` answers
  `{"instrument", "granularity", "candles": [{"time": "1700000040.000000000", "complete": true, "volume": 12,
  "bid": {"o", "h", "l", "c"}, "ask": {...}}]}`; errors are `{"errorMessage": "..."}` (400 for an unknown
  instrument, 401 for a bad token), 429 when rate limited.
- Dukascopy (no account, no key): `GET {base}/EURUSD/2026/10/27/14h_ticks.bi5` (month 00-11) is one UTC hour of
  ticks, LZMA-compressed 20-byte big-endian records: milliseconds into the hour (uint32), ask and bid in points
  (uint32; price = points x the instrument's point size) and ask and bid volume (float32). A file appears once its
  hour has ended (404 before); an empty one means no ticks (weekend, holiday). The ticks are turned into one-minute
  candles (`T1m`, bid and ask) and, for the minutes that span two levels, one-second candles (`T1s`).

Every answer is untrusted: it is read up to `PRICE_MAX_RESPONSE_BYTES` (the connection is closed past it), decoded
off the event loop, held to its documented shape and depth, and every candle is checked (`check_candle`) before it
is believed. A client raises `FeedUnavailable` for anything that is not a usable answer (the poller backs off and
asks again later, never settling on it) and `UnknownSymbol` only when the feed itself says the symbol does not
exist. Candles that fail their check are dropped, counted and reported (`Answer.rejected`); only the candles before
the first rejected one are used, so a bad candle neither settles an idea nor hides a gap.
"""
