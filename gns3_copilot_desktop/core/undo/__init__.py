"""Undo of the approved changes the agent made: a journal of inverse steps per change."""
