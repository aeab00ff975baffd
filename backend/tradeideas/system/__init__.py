"""The system domain: health, metrics and the public client configuration."""
