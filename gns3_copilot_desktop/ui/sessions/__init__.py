"""The list of conversations: search, rename, export, import, delete."""
