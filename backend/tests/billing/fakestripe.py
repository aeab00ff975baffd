"""A local server that answers the Stripe calls paid access makes, as Stripe's API reference shows them: form-encoded
requests, JSON objects with `id` and `object`, errors as `{"error": {...}}`; plus a stand-in for the hosted
checkout page (`pay`) and subscription transitions, and scripted failures (429 with Retry-After, 5xx, hostile)."""

import hashlib
import hmac
import itertools
import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

DAY = 86400


class FakeStripe:
    def __init__(self) -> None:
        self.objects: dict[str, dict[str, Any]] = {}
        self.requests: list[tuple[str, str, dict[str, Any], str | None]] = []
        self.script: deque[tuple[int, dict[str, str], bytes]] = deque()
        self._ids = itertools.count(1)
        self._idempotent: dict[str, dict[str, Any]] = {}
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def new_id(self, prefix: str) -> str:
        return f"{prefix}_test{next(self._ids):06d}"

    # ---- the hosted checkout page and Stripe's own clock ------------------------------------------------
    def pay(self, session_id: str, email: str = "buyer@example.com") -> dict[str, Any]:
        """The customer pays on the hosted page: a subscription starts (trialing with a trial)."""
        session = self.objects[session_id]
        now = int(time.time())
        trial = session.get("_trial_days") or 0
        end = now + (trial * DAY if trial else 30 * DAY)
        sub_id = self.new_id("sub")
        self.objects[sub_id] = {
            "id": sub_id, "object": "subscription", "customer": self.new_id("cus"), "created": now,
            "status": "trialing" if trial else "active", "cancel_at_period_end": False,
            "trial_end": end if trial else None,
            "items": {"object": "list", "data": [{"id": self.new_id("si"), "object": "subscription_item",
                      "current_period_start": now, "current_period_end": end, "price": {"id": session["_price"]}}]},
        }  # fmt: skip
        session.update(status="complete", subscription=sub_id, customer=self.objects[sub_id]["customer"],
                       customer_details={"email": email})  # fmt: skip
        return self.objects[sub_id]

    def set_subscription(self, sub_id: str, **fields: Any) -> None:
        item = self.objects[sub_id]["items"]["data"][0]
        for key in ("current_period_start", "current_period_end"):
            if key in fields:
                item[key] = fields.pop(key)
        self.objects[sub_id].update(fields)

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
        elif method == "GET" and len(parts) == 3 and parts[1] == "subscriptions" and parts[2] in self.objects:
            return 200, self.objects[parts[2]]
        else:
            return 404, {"error": {"type": "invalid_request_error", "message": f"No such object: {path}"}}
        self.objects[str(obj["id"])] = obj
        if key:
            self._idempotent[key] = obj
        return 200, obj

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _reply(self, method: str) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length).decode() if length else ""
                form = {k: v[0] for k, v in parse_qs(raw).items()}
                path = self.path.split("?")[0]
                fake.requests.append((method, path, form, self.headers.get("idempotency-key")))
                if fake.script:
                    status, headers, body = fake.script.popleft()
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
