"""Web Push: VAPID keys, browser subscriptions, the delivery queue and its worker, and the messaging channel."""
