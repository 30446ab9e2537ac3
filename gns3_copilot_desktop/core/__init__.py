"""The Qt-free core: GNS3 client, agent, sessions, stream protocol, settings and secrets.

Nothing here imports PyQt6 or qasync (enforced by ruff's TID251 and tests/test_layers.py). The core
reports upward with return values, async iterators and exceptions, never with signals.
"""
