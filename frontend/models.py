"""The frontend app has no models."""
