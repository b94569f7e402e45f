"""Three-card bluff (Kuhn poker), a test-only game with hidden cards; see rules.py."""
