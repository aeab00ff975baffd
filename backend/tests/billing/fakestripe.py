"""A local server that answers the Stripe calls paid access makes, as Stripe's API reference shows them: form-encoded
requests, JSON objects with `id` and `object`, errors as `{"error": {...}}`; plus a stand-in for the hosted
checkout page (`pay`) and subscription transitions, and scripted failures (429 with Retry-After, 5xx, hostile)."""

import hashlib
import hmac
import itertools
import json
import threading
import time
import uuid
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import httpx

DAY = 86400


class FakeStripe:
    def __init__(self) -> None:
        self.objects: dict[str, dict[str, Any]] = {}
        self.requests: list[tuple[str, str, dict[str, Any], str | None]] = []
        # Scripted answers, one a request, before any normal one; None: answer this request normally.
        self.script: deque[tuple[int, dict[str, str], bytes] | None] = deque()
        self._ids = itertools.count(1)
        self._tag = uuid.uuid4().hex[:6]
        self._idempotent: dict[str, dict[str, Any]] = {}
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def new_id(self, prefix: str) -> str:
        # A tag of this server's own: grants made against another test module's server never match its ids.
        return f"{prefix}_test{self._tag}{next(self._ids):06d}"

    # ---- the hosted checkout page and Stripe's own clock ------------------------------------------------
    def pay(self, session_id: str, email: str = "buyer@example.com") -> dict[str, Any]:
        """The customer pays on the hosted page: a subscription starts (trialing with a trial)."""
        session = self.objects[session_id]
        sub_id = self.subscribe(session["_price"], session.get("_trial_days") or 0)
        session.update(status="complete", subscription=sub_id, customer=self.objects[sub_id]["customer"],
                       customer_details={"email": email})  # fmt: skip
        return self.objects[sub_id]

    def subscribe(self, price: str, trial_days: int = 0) -> str:
        """A new subscription to the price for a new customer (trialing with a trial); its id."""
        now = int(time.time())
        end = now + (trial_days * DAY if trial_days else 30 * DAY)
        sub_id = self.new_id("sub")
        self.objects[sub_id] = {
            "id": sub_id, "object": "subscription", "customer": self.new_id("cus"), "created": now,
            "status": "trialing" if trial_days else "active", "cancel_at_period_end": False,
            "trial_end": end if trial_days else None,
            "items": {"object": "list", "data": [{"id": self.new_id("si"), "object": "subscription_item",
                      "current_period_start": now, "current_period_end": end, "price": {"id": price}}]},
        }  # fmt: skip
        return sub_id

    def set_subscription(self, sub_id: str, **fields: Any) -> None:
        item = self.objects[sub_id]["items"]["data"][0]
        for key in ("current_period_start", "current_period_end"):
            if key in fields:
                item[key] = fields.pop(key)
        self.objects[sub_id].update(fields)

    def deliver(self, endpoint: str, secret: str, kind: str, obj: dict[str, Any]) -> httpx.Response:
        """Send a signed event to a webhook endpoint, as Stripe does (`POST` of the JSON event, `Stripe-Signature`)."""
        payload = json.dumps(self.event(kind, obj)).encode()
        headers = {"content-type": "application/json", "stripe-signature": sign(payload, secret)}
        return httpx.post(endpoint, content=payload, headers=headers, timeout=30)

    def _hosted_page(self, method: str, session_id: str, form: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        """The stand-in for Stripe's hosted checkout page: an e-mail, Pay or Decline. Paying starts the subscription
        and goes back to the session's success URL; declining says so and leaves the session open."""
        session = self.objects.get(session_id)
        if session is None or session.get("object") != "checkout.session":
            return 404, {"content-type": "text/plain"}, b"No such checkout"
        if method == "POST" and form.get("action") == "pay" and session["status"] == "open":
            self.pay(session_id, form.get("email") or "buyer@example.com")
            back = str(session["_form"]["success_url"]).replace("{CHECKOUT_SESSION_ID}", session_id)
            return 303, {"location": back}, b""
        declined = '<p role="alert">Your card was declined.</p>' if method == "POST" else ""
        page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout (test)</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>
<h1>Pay for your subscription</h1>{declined}
<form method="post"><label for="email">Email</label> <input id="email" name="email" type="email" required>
<button name="action" value="pay">Pay</button> <button name="action" value="decline">Decline</button></form>
</main></body></html>"""
        return 200, {"content-type": "text/html; charset=utf-8"}, page.encode()

    def event(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        return {"id": self.new_id("evt"), "object": "event", "type": kind, "created": int(time.time()),
                "data": {"object": obj}}  # fmt: skip

    # ---- HTTP ------------------------------------------------------------------------------------------
    def _answer(self, method: str, path: str, form: dict[str, Any], key: str | None) -> tuple[int, dict[str, Any]]:
        if key and key in self._idempotent:
            return 200, self._idempotent[key]
        parts = path.strip("/").split("/")
        if method == "POST" and path == "/v1/products":
            obj = {"id": self.new_id("prod"), "object": "product", "name": form.get("name")}
        elif method == "POST" and path == "/v1/prices":
            obj = {"id": self.new_id("price"), "object": "price", "product": form.get("product"),
                   "unit_amount": int(form.get("unit_amount", 0)), "currency": form.get("currency")}  # fmt: skip
        elif method == "POST" and path == "/v1/checkout/sessions":
            sid = self.new_id("cs")
            obj = {"id": sid, "object": "checkout.session", "status": "open", "url": f"{self.url}/pay/{sid}",
                   "client_reference_id": form.get("client_reference_id"), "subscription": None, "customer": None,
                   "customer_email": form.get("customer_email"), "_price": form.get("line_items[0][price]"),
                   "_trial_days": int(form.get("subscription_data[trial_period_days]", 0) or 0),
                   "_form": form}  # fmt: skip
        elif method == "POST" and path == "/v1/billing_portal/sessions":
            obj = {"id": self.new_id("bps"), "object": "billing_portal.session", "url": f"{self.url}/portal"}
        elif (
            method == "GET" and len(parts) == 4 and parts[1:3] == ["checkout", "sessions"] and parts[3] in self.objects
        ):
            return 200, self.objects[parts[3]]
        elif method == "GET" and path == "/v1/subscriptions":
            return self._list_subscriptions(form)
        elif method == "GET" and len(parts) == 3 and parts[1] == "subscriptions" and parts[2] in self.objects:
            return 200, self.objects[parts[2]]
        else:
            return 404, {"error": {"type": "invalid_request_error", "message": f"No such object: {path}"}}
        self.objects[str(obj["id"])] = obj
        if key:
            self._idempotent[key] = obj
        return 200, obj

    def _list_subscriptions(self, query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """`GET /v1/subscriptions`: newest first, `limit` (1-100, default 10) a page, `starting_after` an id of
        the previous page; without `status=all` canceled ones are left out, as Stripe does."""
        limit = int(query.get("limit", 10))
        if not 1 <= limit <= 100:
            return 400, {"error": {"type": "invalid_request_error", "message": "Invalid integer: limit"}}
        subs = [o for o in reversed(self.objects.values()) if o.get("object") == "subscription"]
        if query.get("status") != "all":
            subs = [o for o in subs if o["status"] != "canceled"]
        after = query.get("starting_after")
        if after:
            ids = [o["id"] for o in subs]
            if after not in ids:
                return 404, {"error": {"type": "invalid_request_error", "message": f"No such subscription: {after}"}}
            subs = subs[ids.index(after) + 1 :]
        page = subs[:limit]
        return 200, {"object": "list", "url": "/v1/subscriptions", "has_more": len(subs) > limit, "data": page}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _reply(self, method: str) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length).decode() if length else ""
                path, _, query = self.path.partition("?")
                form = {k: v[0] for k, v in parse_qs(raw or query).items()}
                fake.requests.append((method, path, form, self.headers.get("idempotency-key")))
                # The hosted page is a browser's, not an API call: scripted answers are for the API.
                hosted = path.startswith("/pay/")
                scripted = fake.script.popleft() if fake.script and not hosted else None
                if hosted:
                    status, headers, body = fake._hosted_page(method, path.removeprefix("/pay/"), form)
                elif scripted is not None:
                    status, headers, body = scripted
                else:
                    status, answer = fake._answer(method, path, form, self.headers.get("idempotency-key"))
                    headers = {"content-type": "application/json"}
                    body = json.dumps({k: v for k, v in answer.items() if not k.startswith("_")}).encode()
                self.send_response(status)
                for name, value in {"content-type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                self._reply("GET")

            def do_POST(self) -> None:
                self._reply("POST")

        return Handler


def sign(payload: bytes, secret: str, at: int | None = None) -> str:
    """`Stripe-Signature` as Stripe computes it: HMAC-SHA256 over "{t}.{payload}"."""
    t = int(time.time()) if at is None else at
    mac = hmac.new(secret.encode(), f"{t}.".encode() + payload, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"
