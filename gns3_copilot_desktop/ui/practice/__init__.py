"""Practice exercises: the panel that starts, checks and scores them."""
