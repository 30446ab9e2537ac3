"""Where the dock's conversations run: in this app (service) or on a copilot service (remote)."""
