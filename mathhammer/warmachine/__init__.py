"""Warmachine MkIV attack statistics (placeholder; filled in below)."""
