"""A second GNS3 Copilot on the same project, in its own process (for the cross-process tests).

Run: ``python -m tests.helpers.second_instance DB SESSION GNS3_URL TOKEN PROJECT MODEL_URL KEY
READY_FILE``. It opens the project's database with its own AgentService, sends one message in
SESSION through the given (scripted) model and writes READY_FILE once its turn is running (its
first content chunk arrived); it exits when the turn ends.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from langchain_openai import ChatOpenAI

from gns3_copilot_desktop.core.agent.context import AgentLimits, RunContext
from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.gns3 import Gns3Client


def _mark(ready: str) -> bool:
    Path(ready).write_text("running")
    return True


async def main(argv: list[str]) -> int:
    db, session, gns3_url, token, project, model_url, key, ready = argv
    service = await AgentService.open(Path(db))
    try:
        async with Gns3Client(gns3_url, token=token) as client:
            model = ChatOpenAI(
                model="gpt-4o-mini", base_url=model_url, api_key=key, max_retries=0, timeout=60
            )
            context = RunContext(
                client=client,
                project_id=project,
                model=model,
                server_url=gns3_url,
                limits=AgentLimits(heartbeat_interval_s=0),
            )
            marked = False
            async for chunk in service.stream_chat("from the other app", session, context=context):
                if chunk.type == "content" and not marked:
                    marked = _mark(ready)
                if chunk.type == "error":
                    print(f"error: {chunk.error}", file=sys.stderr)
    finally:
        await service.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
