"""The Copilot docked inside the real GNS3 desktop GUI (`gns3-copilot --gns3-gui`).

Everything that touches GNS3 GUI internals lives in `launch` (guarded by the version check of
`compat`); importing this package imports nothing from GNS3.
"""
