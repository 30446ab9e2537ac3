"""``python -m gns3_copilot_desktop``: the same as the ``gns3-copilot`` command."""

from __future__ import annotations

import sys

from gns3_copilot_desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
