"""GNS3 Copilot Desktop: a PyQt6 dock in which an AI agent reads and changes a GNS3 project.

`core` holds everything without Qt (GNS3 client, agent, sessions, settings, secrets); `ui` holds the
widgets; `app` is the composition root that wires them together.
"""

__version__ = "0.1.0"
