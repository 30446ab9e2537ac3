"""The conversation: the panel, its message view and composer, the controller of a turn."""
