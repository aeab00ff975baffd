"""Realtime updates: the transactional outbox of events and the Server-Sent Events stream."""
