"""Tests of the test helpers themselves (the scripted OpenAI server)."""
