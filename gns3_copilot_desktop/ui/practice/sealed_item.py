"""The exercise's injection in the conversation: one "Injected (sealed)" item until it ends.

While the exercise runs the item says nothing of the faults; once it was solved or given up it
names them and shows the answer. Texts keep the "PracticePanel" translation context.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.ui.practice.texts import reveal_text

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.practice.engine import Reveal
    from gns3_copilot_desktop.ui.chat.message_view import MessageView

INJECT_TOOL = "inject_practice_faults"  # the engine's name for the sealed injection


def _call_id(exercise_id: str) -> str:
    return f"practice-inject-{exercise_id}"


def show_sealed(view: MessageView, exercise_id: str) -> None:
    """The injection, in the conversation, as one item that says nothing of the faults."""
    call_id = _call_id(exercise_id)
    if view.card(call_id) is not None:
        return
    idle = view.current_turn is None
    summary = QCoreApplication.translate("PracticePanel", "Injected (sealed)")
    view.start_tool(
        ChatChunk(type="tool_start", tool_call_id=call_id, tool_name=INJECT_TOOL, content=summary)
    )
    view.end_tool(
        ChatChunk(
            type="tool_end",
            tool_call_id=call_id,
            tool_name=INJECT_TOOL,
            status="ok",
            tool_output=QCoreApplication.translate(
                "PracticePanel", "What was injected stays sealed until the exercise ends."
            ),
        )
    )
    if idle:
        view.finish_turn("done")


def unseal(view: MessageView, exercise_id: str, reveal: Reveal) -> None:
    """The exercise ended: its item names the faults and shows the answer."""
    card = view.card(_call_id(exercise_id))
    if card is None:
        return
    titles = "; ".join(f"{f.title} ({f.where})" for f in reveal.faults)
    card.set_summary(
        QCoreApplication.translate("PracticePanel", "Injected: %1").replace("%1", titles)
    )
    card.finish("ok", reveal_text(reveal))
