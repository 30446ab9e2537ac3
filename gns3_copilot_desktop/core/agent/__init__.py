"""The agent: model factory, graph, tools, prompts and the per-project AgentService."""
