"""The cards a turn puts in the conversation: tool calls, approvals and undo."""
