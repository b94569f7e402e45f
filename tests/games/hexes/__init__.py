"""Hex skirmish, a test-only hex-and-counter game that proves the shared hex map kit; see rules.py."""
