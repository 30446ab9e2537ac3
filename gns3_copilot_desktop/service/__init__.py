"""`gns3-copilot serve`: the Chat API of the design ("GNS3 Copilot Agent Chat API") as an HTTP
service, on the same core as the dock (AgentService per project, checkpoint DB per project).

No Qt here. Starlette and uvicorn come with the optional ``serve`` extra, so the desktop bundle does
not carry them.
"""
