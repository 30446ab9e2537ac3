"""PyInstaller entry script: the bundle's `gns3-copilot` executable runs the app's `main()`."""

from gns3_copilot_desktop.app import main

if __name__ == "__main__":
    raise SystemExit(main())
