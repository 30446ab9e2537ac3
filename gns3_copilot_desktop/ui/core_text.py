"""The core's fixed phrases in the user's language (tool summaries, what goes with a change,
notices, argument names).

The core writes English (the model reads it too) and knows nothing of Qt. What the user reads of
it goes through `core_text` here: each known phrase shape is a pattern with a translatable
template (``%1``, ``%2`` for the parts that are data: node names, commands, numbers). A phrase that
matches no pattern is shown as the core wrote it. The patterns follow the tools' ``summary`` and
``consequence`` methods; tests/ui/test_chinese_walk.py fails when a shape is missing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.core.text import TOOL_NAME_CONTEXT

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.tools.registry import ToolRegistry


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


_C = "CoreText"

# (pattern, template): the template's %1.. take the pattern's groups, each group itself passed
# through the inner phrases below (so "all nodes" or "(+2 lines)" inside a group are translated).
_PHRASES: list[tuple[str, str]] = [
    # undoing a change (core.undo.apply): the actions, then why a step no longer applies
    (
        r"remove node (.+) and its (\d+) link\(s\)",
        QT_TRANSLATE_NOOP("CoreText", "remove node %1 and its %2 link(s)"),
    ),
    (r"remove node (.+)", QT_TRANSLATE_NOOP("CoreText", "remove node %1")),
    (
        r"bring back node (.+) \((\S+)\) at \((-?\d+), (-?\d+)\) with (.+)",
        QT_TRANSLATE_NOOP("CoreText", "bring back node %1 (%2) at (%3, %4) with %5"),
    ),
    (
        r"bring back node (.+) \((\S+)\) at \((-?\d+), (-?\d+)\)",
        QT_TRANSLATE_NOOP("CoreText", "bring back node %1 (%2) at (%3, %4)"),
    ),
    (r"bring back link (.+)", QT_TRANSLATE_NOOP("CoreText", "bring back link %1")),
    (r"rename (.+) back to ([^,]+)", QT_TRANSLATE_NOOP("CoreText", "rename %1 back to %2")),
    (
        r"move (.+) back to \((-?\d+), (-?\d+)\)",
        QT_TRANSLATE_NOOP("CoreText", "move %1 back to (%2, %3)"),
    ),
    (r"remove link (.+)", QT_TRANSLATE_NOOP("CoreText", "remove link %1")),
    (r"remove the note '(.*)'", QT_TRANSLATE_NOOP("CoreText", "remove the note '%1'")),
    (
        r"push back (\d+) line\(s\) to (.+)",
        QT_TRANSLATE_NOOP("CoreText", "push back %1 line(s) to %2"),
    ),
    # what goes with a deletion (one line each; the links' own lines are lab names, kept as are)
    (r"([^\n]+) goes with its 1 link:", QT_TRANSLATE_NOOP("CoreText", "%1 goes with its 1 link:")),
    (
        r"([^\n]+) goes with its (\d+) links:",
        QT_TRANSLATE_NOOP("CoreText", "%1 goes with its %2 links:"),
    ),
    (r"([^\n]+) has no links", QT_TRANSLATE_NOOP("CoreText", "%1 has no links")),
    (r"([^\n]+) is running now", QT_TRANSLATE_NOOP("CoreText", "%1 is running now")),
    (r"([^\n]+) is suspended now", QT_TRANSLATE_NOOP("CoreText", "%1 is suspended now")),
    (r"(.+) is already gone", QT_TRANSLATE_NOOP("CoreText", "%1 is already gone")),
    (r"(.+) is back already", QT_TRANSLATE_NOOP("CoreText", "%1 is back already")),
    (r"(.+) is as it was already", QT_TRANSLATE_NOOP("CoreText", "%1 is as it was already")),
    (r"a node named (.+) exists now", QT_TRANSLATE_NOOP("CoreText", "a node named %1 exists now")),
    (
        r"(.+): the name (.+) is taken now",
        QT_TRANSLATE_NOOP("CoreText", "%1: the name %2 is taken now"),
    ),
    (
        r"(.+): (.+) is not in the project",
        QT_TRANSLATE_NOOP("CoreText", "%1: %2 is not in the project"),
    ),
    (r"(.+): (.+) is in use", QT_TRANSLATE_NOOP("CoreText", "%1: %2 is in use")),
    (r"(.+): not put back: (.+)", QT_TRANSLATE_NOOP("CoreText", "%1: not put back: %2")),
    (
        r"(.+): its console cannot be reached from here",
        QT_TRANSLATE_NOOP("CoreText", "%1: its console cannot be reached from here"),
    ),
    (r"List projects", QT_TRANSLATE_NOOP("CoreText", "List projects")),
    (
        r"Read the topology of the current project",
        QT_TRANSLATE_NOOP("CoreText", "Read the topology of the current project"),
    ),
    (r"List templates matching (.+)", QT_TRANSLATE_NOOP("CoreText", "List templates matching %1")),
    (r"List templates", QT_TRANSLATE_NOOP("CoreText", "List templates")),
    (r"start capture on (.+)", QT_TRANSLATE_NOOP("CoreText", "start capture on %1")),
    (r"stop capture on (.+)", QT_TRANSLATE_NOOP("CoreText", "stop capture on %1")),
    (r"summarize capture of (.+)", QT_TRANSLATE_NOOP("CoreText", "summarize capture of %1")),
    (r"create nodes? (.+)", QT_TRANSLATE_NOOP("CoreText", "create %1")),
    (
        r"delete (.+) with (?:its|their) links",
        QT_TRANSLATE_NOOP("CoreText", "delete %1 and their links"),
    ),
    (r"create links? (.+)", QT_TRANSLATE_NOOP("CoreText", "create link %1")),
    (r"delete links? (.+)", QT_TRANSLATE_NOOP("CoreText", "delete link %1")),
    (
        r"start (.+) and wait up to (\S+) s",
        QT_TRANSLATE_NOOP("CoreText", "start %1 and wait up to %2 s"),
    ),
    (
        r"stop (.+) and wait up to (\S+) s",
        QT_TRANSLATE_NOOP("CoreText", "stop %1 and wait up to %2 s"),
    ),
    (
        r"suspend (.+) and wait up to (\S+) s",
        QT_TRANSLATE_NOOP("CoreText", "suspend %1 and wait up to %2 s"),
    ),
    (
        r"reload (.+) and wait up to (\S+) s",
        QT_TRANSLATE_NOOP("CoreText", "reload %1 and wait up to %2 s"),
    ),
    (r"start (.+)", QT_TRANSLATE_NOOP("CoreText", "start %1")),
    (r"stop (.+)", QT_TRANSLATE_NOOP("CoreText", "stop %1")),
    (r"suspend (.+)", QT_TRANSLATE_NOOP("CoreText", "suspend %1")),
    (r"reload (.+)", QT_TRANSLATE_NOOP("CoreText", "reload %1")),
    (r"run on (.+)", QT_TRANSLATE_NOOP("CoreText", "run on %1")),
    (r"configure (.+)", QT_TRANSLATE_NOOP("CoreText", "configure %1")),
    (r"details of (.+)", QT_TRANSLATE_NOOP("CoreText", "details of %1")),
    (r"links of the project", QT_TRANSLATE_NOOP("CoreText", "links of the project")),
    (r"links of (.+)", QT_TRANSLATE_NOOP("CoreText", "links of %1")),
    (r"project statistics", QT_TRANSLATE_NOOP("CoreText", "project statistics")),
    (r"list snapshots", QT_TRANSLATE_NOOP("CoreText", "list snapshots")),
    (r"template details of (.+)", QT_TRANSLATE_NOOP("CoreText", "template details of %1")),
    (r"create snapshot '(.+)'", QT_TRANSLATE_NOOP("CoreText", "create snapshot '%1'")),
    (
        r"restore snapshot '(.+)' \(replaces the current topology\)",
        QT_TRANSLATE_NOOP("CoreText", "restore snapshot '%1' (replaces the current topology)"),
    ),
    (r'add note "(.+)"', QT_TRANSLATE_NOOP("CoreText", 'add note "%1"')),
    (r"rename ([^;,]+) -> ([^;,]+)", QT_TRANSLATE_NOOP("CoreText", "rename %1 to %2")),
    (r"move ([^;]+) to \(([^;]+)\)", QT_TRANSLATE_NOOP("CoreText", "move %1 to (%2)")),
    # what goes with a change (the tools' consequence)
    (r"deletes (.+)", QT_TRANSLATE_NOOP("CoreText", "deletes %1")),
    (
        r"(.+) (?:is|are) running: their running configuration is lost unless saved on the device",
        QT_TRANSLATE_NOOP("CoreText", "%1 running: unsaved configuration on them is lost"),
    ),
    (
        r"(.+) (?:is|are) running: their consoles and traffic are paused",
        QT_TRANSLATE_NOOP("CoreText", "%1 running: their consoles and traffic are paused"),
    ),
    (
        r"none of these nodes is running",
        QT_TRANSLATE_NOOP("CoreText", "none of these nodes is running"),
    ),
    (
        r"replaces the current (\d+) node\(s\) and (\d+) link\(s\) with the snapshot; every change "
        r"made since it was taken is lost",
        QT_TRANSLATE_NOOP(
            "CoreText", "replaces the current %1 node(s) and %2 link(s); every later change is lost"
        ),
    ),
    (
        r"([^;]+): (\d+) new line\(s\), (\d+) already there",
        QT_TRANSLATE_NOOP("CoreText", "%1: %2 new line(s), %3 already there"),
    ),
    (
        r"([^;]+): running configuration not read \(([^;]+)\)",
        QT_TRANSLATE_NOOP("CoreText", "%1: running configuration not read (%2)"),
    ),
]

_PHRASES += [
    (
        r"The model's context window \(([\d,]+) tokens\) is too small for all (\d+) tools \(about "
        r"([\d,]+) tokens\) and this conversation, so only the tools that read the lab were "
        r"offered\. For changes, raise the context window in the model settings \(and on the "
        r"model's server\) or shorten the answer limit\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model's context window (%1 tokens) is too small for all %2 tools (about %3 "
            "tokens) and this conversation, so only the tools that read the lab were offered. "
            "For changes, raise the context window in the model settings (and on the model's "
            "server) or shorten the answer limit.",
        ),
    ),
    (
        r"The model's context window \(([\d,]+) tokens\) is too small for any tool and this "
        r"conversation, so it answered without tools\. Raise the context window in the model "
        r"settings \(and on the model's server\), or start a new conversation\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model's context window (%1 tokens) is too small for any tool and this "
            "conversation, so it answered without tools. Raise the context window in the model "
            "settings (and on the model's server), or start a new conversation.",
        ),
    ),
]

# A lab plan (core/agent/tools/plan_tools.py, core/lab_plan/diff.py).
_PHRASES += [
    (
        r"plan a lab of (\d+) nodes? and (\d+) links?",
        QT_TRANSLATE_NOOP("CoreText", "plan a lab of %1 nodes and %2 links"),
    ),
    (r"nothing to change", QT_TRANSLATE_NOOP("CoreText", "nothing to change")),
    (r"(\S+) started", QT_TRANSLATE_NOOP("CoreText", "%1 started")),
    (r"(\S+) pings (\S+)", QT_TRANSLATE_NOOP("CoreText", "%1 pings %2")),
    (r"add ([^;]+)", QT_TRANSLATE_NOOP("CoreText", "add %1")),
    (r"remove ([^;]+)", QT_TRANSLATE_NOOP("CoreText", "remove %1")),
]

# What the GNS3 server answered or failed to (core/gns3/_errors.py): headers, banners, login.
_PHRASES += [
    (
        r"The authentication with (\S+) expired or is invalid \((.+)\)\. Please log in again\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The authentication with %1 expired or is invalid (%2). Please log in again.",
        ),
    ),
    (
        r"(\S+) refused the login for '(.+)': (.+)",
        QT_TRANSLATE_NOOP("CoreText", "%1 refused the login for '%2': %3"),
    ),
    (
        r"(\S+) failed to handle the request \(HTTP (\d+)\): (.+)",
        QT_TRANSLATE_NOOP("CoreText", "%1 failed to handle the request (HTTP %2): %3"),
    ),
    (
        r"Could not connect to (\S+): no answer within (\S+) s \(timed out\)\.",
        QT_TRANSLATE_NOOP(
            "CoreText", "Could not connect to %1: no answer within %2 s (timed out)."
        ),
    ),
    (
        r"(\S+) did not answer within (\S+) s \(timed out\)\.",
        QT_TRANSLATE_NOOP("CoreText", "%1 did not answer within %2 s (timed out)."),
    ),
    (
        r"The TLS connection to (\S+) failed: (.+)\. If the server uses a self-signed "
        r"certificate, set its CA certificate file in the server settings\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The TLS connection to %1 failed: %2. If the server uses a self-signed certificate, "
            "set its CA certificate file in the server settings.",
        ),
    ),
    (
        r"The host name of (\S+) could not be resolved \(DNS\): check the address\.",
        QT_TRANSLATE_NOOP(
            "CoreText", "The host name of %1 could not be resolved (DNS): check the address."
        ),
    ),
    (
        r"(\S+) refused the connection: is the GNS3 server running and listening on that "
        r"address and port\?",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "%1 refused the connection: is the GNS3 server running and listening on that "
            "address and port?",
        ),
    ),
    (
        r"Could not connect to (\S+): (.+)",
        QT_TRANSLATE_NOOP("CoreText", "Could not connect to %1: %2"),
    ),
    (
        r"The connection to (\S+) broke off: (.+)",
        QT_TRANSLATE_NOOP("CoreText", "The connection to %1 broke off: %2"),
    ),
    (r"Talking to (\S+) failed: (.+)", QT_TRANSLATE_NOOP("CoreText", "Talking to %1 failed: %2")),
]

# Why a model cannot be used (model_factory's ModelConfigError): the composer and the settings.
_PHRASES += [
    (
        r"No language model is configured\. Add a model in Settings, or set OPENAI_API_KEY, "
        r"ANTHROPIC_API_KEY, DEEPSEEK_API_KEY or OLLAMA_HOST \(with GNS3_COPILOT_MODEL\)\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "No language model is configured. Add a model in Settings, or set OPENAI_API_KEY, "
            "ANTHROPIC_API_KEY, DEEPSEEK_API_KEY or OLLAMA_HOST (with GNS3_COPILOT_MODEL).",
        ),
    ),
    (
        r"The model (.+) needs an API key: enter it in the model settings or set (\S+)\.",
        QT_TRANSLATE_NOOP(
            "CoreText", "The model %1 needs an API key: enter it in the model settings or set %2."
        ),
    ),
    (
        r"The model (.+) needs an API key: enter it in the model settings\.",
        QT_TRANSLATE_NOOP(
            "CoreText", "The model %1 needs an API key: enter it in the model settings."
        ),
    ),
    (
        r"The model profile (.+) has no API key: enter it in the model settings\.",
        QT_TRANSLATE_NOOP(
            "CoreText", "The model profile %1 has no API key: enter it in the model settings."
        ),
    ),
    (
        r"The model (.+) needs a base URL \(e\.g\. (\S+)\)\.",
        QT_TRANSLATE_NOOP("CoreText", "The model %1 needs a base URL (e.g. %2)."),
    ),
    (
        r"The model (.+) cannot be used: (.+)",
        QT_TRANSLATE_NOOP("CoreText", "The model %1 cannot be used: %2"),
    ),
    (
        r"The model (.+) could not be built\.",
        QT_TRANSLATE_NOOP("CoreText", "The model %1 could not be built."),
    ),
    (
        r"The model (.+) does not accept tool calls \((.+)\)\. Choose a model that supports "
        r"tools \(function calling\)\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model %1 does not accept tool calls (%2). Choose a model that supports tools "
            "(function calling).",
        ),
    ),
    (
        r"The model (.+) does not accept tool calls\.",
        QT_TRANSLATE_NOOP("CoreText", "The model %1 does not accept tool calls."),
    ),
    (
        r"OLLAMA_HOST is set but no model is chosen: set GNS3_COPILOT_MODEL=ollama:<model> "
        r"\(e\.g\. ollama:llama3\.1:8b\)\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "OLLAMA_HOST is set but no model is chosen: set GNS3_COPILOT_MODEL=ollama:<model> "
            "(e.g. ollama:llama3.1:8b).",
        ),
    ),
    (
        r"GNS3_COPILOT_MODEL=(.+) does not name a provider: write it as provider:model, with "
        r"provider one of (.+)\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "GNS3_COPILOT_MODEL=%1 does not name a provider: write it as provider:model, with "
            "provider one of %2.",
        ),
    ),
    (r"In (.+?): (.+)\.", QT_TRANSLATE_NOOP("CoreText", "In %1: %2.")),
]

# The errors a turn ends with (model_factory.map_provider_error, turn.py, the store, the guard).
_PHRASES += [
    (
        r"The model server could not read the request \(HTTP (\d+)\); retrying will not help\. "
        r"It is probably not fully OpenAI-compatible: check the server kind in the model "
        r"settings\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model server could not read the request (HTTP %1); retrying will not help. It "
            "is probably not fully OpenAI-compatible: check the server kind in the model settings.",
        ),
    ),
    (
        r"The model provider sent a malformed answer \(not valid JSON\)\. Try again; if it "
        r"persists, the endpoint is not fully OpenAI-compatible\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model provider sent a malformed answer (not valid JSON). Try again; if it "
            "persists, the endpoint is not fully OpenAI-compatible.",
        ),
    ),
    (
        r"The answer was cut off: the model provider closed the stream before it finished\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The answer was cut off: the model provider closed the stream before it finished.",
        ),
    ),
    (
        r"The model provider did not answer in time\. Try again, or raise the timeout in the "
        r"model settings\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model provider did not answer in time. Try again, or raise the timeout in the "
            "model settings.",
        ),
    ),
    (
        r"The model server stopped \((.+) no longer answers\)\. It may have crashed: see its log, "
        r"start it again, then retry\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model server stopped (%1 no longer answers). It may have crashed: see its log, "
            "start it again, then retry.",
        ),
    ),
    (
        r"The model server is not running \((.+) does not answer\)\. Start it, then retry, or "
        r"check the base URL in the model settings\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model server is not running (%1 does not answer). Start it, then retry, or check "
            "the base URL in the model settings.",
        ),
    ),
    (
        r"Could not reach the model provider \((.+)\)\. Check the base URL and the network\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "Could not reach the model provider (%1). Check the base URL and the network.",
        ),
    ),
    (
        r"The model provider rejected the API key \((.+)\)\. Check the key in the model settings\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model provider rejected the API key (%1). Check the key in the model settings.",
        ),
    ),
    (
        r"The model provider's rate limit or quota was reached \((.+)\)\. Try again in (\d+) s\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model provider's rate limit or quota was reached (%1). Try again in %2 s.",
        ),
    ),
    (
        r"The model provider's rate limit or quota was reached \((.+)\)\. Try again in a moment\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The model provider's rate limit or quota was reached (%1). Try again in a moment.",
        ),
    ),
    (
        r"The model provider timed out \((.+)\)\.",
        QT_TRANSLATE_NOOP("CoreText", "The model provider timed out (%1)."),
    ),
    (
        r"The model provider refused the request \((.+)\)\.",
        QT_TRANSLATE_NOOP("CoreText", "The model provider refused the request (%1)."),
    ),
    (
        r"The model provider had an internal error \((.+)\)\. Try again\.",
        QT_TRANSLATE_NOOP("CoreText", "The model provider had an internal error (%1). Try again."),
    ),
    (
        r"The model provider failed: (.+)",
        QT_TRANSLATE_NOOP("CoreText", "The model provider failed: %1"),
    ),
    (
        r"Something went wrong in the copilot; the details are in the log file\.",
        QT_TRANSLATE_NOOP(
            "CoreText", "Something went wrong in the copilot; the details are in the log file."
        ),
    ),
    (
        r"Another GNS3 Copilot \(on (.+)\) is answering in this conversation right now\. Wait for "
        r"it to finish, or start a new conversation; nothing was sent\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "Another GNS3 Copilot (on %1) is answering in this conversation right now. Wait for "
            "it to finish, or start a new conversation; nothing was sent.",
        ),
    ),
    (
        r"Nothing in this conversation is waiting for a decision any more \(a new message was sent "
        r"or the turn ended\): nothing was run\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "Nothing in this conversation is waiting for a decision any more (a new message was "
            "sent or the turn ended): nothing was run.",
        ),
    ),
    (
        r"The conversations of this project could not be read; the file was kept as (.+) and a "
        r"new one started\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The conversations of this project could not be read; the file was kept as %1 and a "
            "new one started.",
        ),
    ),
    (
        r"This project came with conversations from another computer\. They are not opened as "
        r"conversations of yours \(a shared file could make the app run something\); this "
        r"computer keeps its own beside them\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "This project came with conversations from another computer. They are not opened as "
            "conversations of yours (a shared file could make the app run something); this "
            "computer keeps its own beside them.",
        ),
    ),
    # Practice: exercises and a trainer's exercise file (core/practice).
    (
        r"inject (\d+) (beginner|intermediate|advanced) fault on (\d+) device",
        QT_TRANSLATE_NOOP("CoreText", "inject %1 %2 fault on %3 device"),
    ),
    (
        r"inject (\d+) (beginner|intermediate|advanced) faults on (\d+) device",
        QT_TRANSLATE_NOOP("CoreText", "inject %1 %2 faults on %3 device"),
    ),
    (
        r"inject (\d+) (beginner|intermediate|advanced) fault on (\d+) devices",
        QT_TRANSLATE_NOOP("CoreText", "inject %1 %2 fault on %3 devices"),
    ),
    (
        r"inject (\d+) (beginner|intermediate|advanced) faults on (\d+) devices",
        QT_TRANSLATE_NOOP("CoreText", "inject %1 %2 faults on %3 devices"),
    ),
    (
        r"The faults are injected into the running lab by their own steps \(device consoles, "
        r"the GNS3 link settings\) and saved where the device keeps a startup configuration; no "
        r"node is stopped\. The exercise starts once each fault is confirmed; if one cannot be, "
        r"everything injected is undone\. Giving up runs the faults' undo steps\. What is "
        r"injected stays sealed until the exercise ends\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The faults are injected into the running lab by their own steps (device consoles, "
            "the GNS3 link settings) and saved where the device keeps a startup configuration; "
            "no node is stopped. The exercise starts once each fault is confirmed; if one cannot "
            "be, everything injected is undone. Giving up runs the faults' undo steps. What is "
            "injected stays sealed until the exercise ends.",
        ),
    ),
    (
        r"Each fault's own undo steps run \(shown above\); nothing else in the lab changes and "
        r"no node is stopped\. A device or link you removed meanwhile is left as it is\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "Each fault's own undo steps run (shown above); nothing else in the lab changes and "
            "no node is stopped. A device or link you removed meanwhile is left as it is.",
        ),
    ),
    (
        r"undo the exercise's faults on (.+)",
        QT_TRANSLATE_NOOP("CoreText", "undo the exercise's faults on %1"),
    ),
    (
        r"Could not inject “(.+)” on (.+?): (.*)\. Nothing was started and the lab is as it "
        r"was\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "Could not inject “%1” on %2: %3. Nothing was started and the lab is as it was.",
        ),
    ),
    (
        r"the lab changed: the link (.+) is no longer in it",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: the link %1 is no longer in it"),
    ),
    (
        r"the lab changed: the link (.+) is gone",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: the link %1 is gone"),
    ),
    (
        r"the lab changed: (.+) is no longer in it",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: %1 is no longer in it"),
    ),
    (
        r"the lab changed: (.+) was replaced by another node",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: %1 was replaced by another node"),
    ),
    (
        r"the lab changed: (.+) is not running",
        QT_TRANSLATE_NOOP("CoreText", "the lab changed: %1 is not running"),
    ),
    (
        r"(.+) does not answer on its console",
        QT_TRANSLATE_NOOP("CoreText", "%1 does not answer on its console"),
    ),
    (
        r"the link (.+) is no longer in the lab",
        QT_TRANSLATE_NOOP("CoreText", "the link %1 is no longer in the lab"),
    ),
    (
        r"(.+) is not running, so it was left as it is",
        QT_TRANSLATE_NOOP("CoreText", "%1 is not running, so it was left as it is"),
    ),
    (
        r"This exercise was sealed by another installation of GNS3 Copilot \(or its keyring was "
        r"reset\): its answer cannot be read here\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "This exercise was sealed by another installation of GNS3 Copilot (or its keyring "
            "was reset): its answer cannot be read here.",
        ),
    ),
    (
        r"Only an ended exercise can be undone\.",
        QT_TRANSLATE_NOOP("CoreText", "Only an ended exercise can be undone."),
    ),
    (
        r"The rehearsal of the exercise left: (.+)\.",
        QT_TRANSLATE_NOOP("CoreText", "The rehearsal of the exercise left: %1."),
    ),
    (
        r"Choose a passphrase of at least (\d+) characters\.",
        QT_TRANSLATE_NOOP("CoreText", "Choose a passphrase of at least %1 characters."),
    ),
    (
        r"This file is not an exercise exported by GNS3 Copilot\.",
        QT_TRANSLATE_NOOP("CoreText", "This file is not an exercise exported by GNS3 Copilot."),
    ),
    (
        r"This exercise file was made by another version of GNS3 Copilot\.",
        QT_TRANSLATE_NOOP(
            "CoreText", "This exercise file was made by another version of GNS3 Copilot."
        ),
    ),
    (
        r"The passphrase is wrong, or the file was changed\.",
        QT_TRANSLATE_NOOP("CoreText", "The passphrase is wrong, or the file was changed."),
    ),
    (
        r"This exercise file names an unknown level\.",
        QT_TRANSLATE_NOOP("CoreText", "This exercise file names an unknown level."),
    ),
    (
        r"This exercise needs the fault (.+), which this version of GNS3 Copilot does not have\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "This exercise needs the fault %1, which this version of GNS3 Copilot does not have.",
        ),
    ),
    (
        r"The lab is stopped \((.+)\): start the lab, then the exercise\.",
        QT_TRANSLATE_NOOP("CoreText", "The lab is stopped (%1): start the lab, then the exercise."),
    ),
    (
        r"No imported exercise waits in this project\.",
        QT_TRANSLATE_NOOP("CoreText", "No imported exercise waits in this project."),
    ),
    (
        r"The imported lab is not the trainer's any more \(a fault's device or link is "
        r"missing\): import the exercise again\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The imported lab is not the trainer's any more (a fault's device or link is "
            "missing): import the exercise again.",
        ),
    ),
    (
        r"The lab does not work yet, so the exercise could not be checked: (.+)\. Start its "
        r"nodes and try again\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The lab does not work yet, so the exercise could not be checked: %1. Start its "
            "nodes and try again.",
        ),
    ),
    (
        r"The lab does not work yet, so an exercise could not be checked: (.+)\. Make it work "
        r"first\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The lab does not work yet, so an exercise could not be checked: %1. Make it work "
            "first.",
        ),
    ),
    (
        r"GNS3 did not export the project as a zip archive\.",
        QT_TRANSLATE_NOOP("CoreText", "GNS3 did not export the project as a zip archive."),
    ),
    (
        r"The project is too large to export here\.",
        QT_TRANSLATE_NOOP("CoreText", "The project is too large to export here."),
    ),
    # a trainer's signature and the lab archive checked before GNS3 unpacks it
    (
        r"This exercise is signed by a different key than (.+)'s pinned key \(fingerprint "
        r"(.+), pinned (.+)\)\. It was not imported\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "This exercise is signed by a different key than %1's pinned key (fingerprint %2, "
            "pinned %3). It was not imported.",
        ),
    ),
    (
        r"The signature of this exercise does not match: the file was changed after (.+) "
        r"signed it, or it was forged\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The signature of this exercise does not match: the file was changed after %1 "
            "signed it, or it was forged.",
        ),
    ),
    (
        r"This exercise file is of the older, unsigned format, which anyone with the class "
        r"passphrase could have made\. Ask your trainer to export it again\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "This exercise file is of the older, unsigned format, which anyone with the class "
            "passphrase could have made. Ask your trainer to export it again.",
        ),
    ),
    (
        r"This exercise file is not signed by a trainer\.",
        QT_TRANSLATE_NOOP("CoreText", "This exercise file is not signed by a trainer."),
    ),
    (
        r"The project archive was refused: the entry “(.+)” (.+)\. Nothing was imported\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The project archive was refused: the entry “%1” %2. Nothing was imported.",
        ),
    ),
    (
        r"The project archive has (\d+) entries; at most (\d+) are imported\. Nothing was "
        r"imported\.",
        QT_TRANSLATE_NOOP(
            "CoreText",
            "The project archive has %1 entries; at most %2 are imported. Nothing was imported.",
        ),
    ),
]

# Phrases inside the parts above.
_INNER: list[tuple[str, str]] = [
    # an undo that found a node or link by its name after GNS3 renewed the ids
    (r"\(matched by name: ([^)]+)\)", QT_TRANSLATE_NOOP("CoreText", "(matched by name: %1)")),
    (
        r"\(matched by name and ports\)",
        QT_TRANSLATE_NOOP("CoreText", "(matched by name and ports)"),
    ),
    (r"\ball nodes\b", QT_TRANSLATE_NOOP("CoreText", "all nodes")),
    (r"\bbeginner\b", QT_TRANSLATE_NOOP("CoreText", "beginner")),
    (r"\bintermediate\b", QT_TRANSLATE_NOOP("CoreText", "intermediate")),
    (r"\badvanced\b", QT_TRANSLATE_NOOP("CoreText", "advanced")),
    (r"\(\+(\d+) lines\)", QT_TRANSLATE_NOOP("CoreText", "(+%1 lines)")),
    (r"\bnew node\b", QT_TRANSLATE_NOOP("CoreText", "new node")),
    (r" and its 1 link\b", QT_TRANSLATE_NOOP("CoreText", " and its 1 link")),
    (r" and its (\d+) links\b", QT_TRANSLATE_NOOP("CoreText", " and its %1 links")),
    (r"\(no links\)", QT_TRANSLATE_NOOP("CoreText", "(no links)")),
    (r", now started", QT_TRANSLATE_NOOP("CoreText", ", now running")),
    (r", now suspended", QT_TRANSLATE_NOOP("CoreText", ", now suspended")),
    (r"\bsame\b", QT_TRANSLATE_NOOP("CoreText", "same")),
    (r"\(free port\)", QT_TRANSLATE_NOOP("CoreText", "(free port)")),
    (r"\b(\d+) nodes?\b", QT_TRANSLATE_NOOP("CoreText", "%1 node(s)")),
    (r"\b(\d+) links?\b", QT_TRANSLATE_NOOP("CoreText", "%1 link(s)")),
    (r"\b(\d+) devices?\b", QT_TRANSLATE_NOOP("CoreText", "%1 device(s)")),
    (r"\bthe link at (\S+)", QT_TRANSLATE_NOOP("CoreText", "the link at %1")),
]

ARGUMENT_NAMES = {
    "nodes": QT_TRANSLATE_NOOP("CoreText", "nodes"),
    "node": QT_TRANSLATE_NOOP("CoreText", "node"),
    "template": QT_TRANSLATE_NOOP("CoreText", "template"),
    "templates": QT_TRANSLATE_NOOP("CoreText", "templates"),
    "name": QT_TRANSLATE_NOOP("CoreText", "name"),
    "new_name": QT_TRANSLATE_NOOP("CoreText", "new name"),
    "links": QT_TRANSLATE_NOOP("CoreText", "links"),
    "link": QT_TRANSLATE_NOOP("CoreText", "link"),
    "node_a": QT_TRANSLATE_NOOP("CoreText", "node A"),
    "node_b": QT_TRANSLATE_NOOP("CoreText", "node B"),
    "port_a": QT_TRANSLATE_NOOP("CoreText", "port A"),
    "port_b": QT_TRANSLATE_NOOP("CoreText", "port B"),
    "devices": QT_TRANSLATE_NOOP("CoreText", "devices"),
    "lines": QT_TRANSLATE_NOOP("CoreText", "configuration lines"),
    "commands": QT_TRANSLATE_NOOP("CoreText", "commands"),
    "timeout_s": QT_TRANSLATE_NOOP("CoreText", "timeout (s)"),
    "command_timeout_s": QT_TRANSLATE_NOOP("CoreText", "command timeout (s)"),
    "credential": QT_TRANSLATE_NOOP("CoreText", "saved login"),
    "x": QT_TRANSLATE_NOOP("CoreText", "x"),
    "y": QT_TRANSLATE_NOOP("CoreText", "y"),
    "all": QT_TRANSLATE_NOOP("CoreText", "all"),
    "wait": QT_TRANSLATE_NOOP("CoreText", "wait"),
    "text": QT_TRANSLATE_NOOP("CoreText", "text"),
    "color": QT_TRANSLATE_NOOP("CoreText", "colour"),
}


_PROBE = QT_TRANSLATE_NOOP("CoreText", "List projects")


def _tr(text: str) -> str:
    return QCoreApplication.translate(_C, text)


def _fill(template: str, groups: tuple[str, ...], inner: Callable[[str], str]) -> str:
    out = _tr(template)
    for index in range(len(groups), 0, -1):  # %10 before %1
        out = out.replace(f"%{index}", inner(groups[index - 1] or ""))
    return out


def _inner(text: str) -> str:
    for pattern, template in _INNER:

        def fill(match: re.Match[str], template: str = template) -> str:
            return _fill(template, match.groups(), str)

        text = re.sub(pattern, fill, text)
    return text


_COMPILED = [(re.compile(rf"^{p}$", re.S), t) for p, t in _PHRASES]


def core_text(text: str) -> str:
    """``text`` in the user's language when it is a known phrase shape; else as it is.

    Phrases joined by ``; `` (an update of several nodes, several devices) are translated one by
    one."""
    if not text:
        return text
    if _tr(_PROBE) == _PROBE:
        return text  # no translation loaded: the core's own English, word for word
    if "\n" in text:  # a text of several lines (what goes with a deletion): line by line
        lines = text.split("\n")
        translated = [core_text(line) for line in lines]
        if translated != lines:
            return "\n".join(translated)
    for pattern, template in _COMPILED:
        match = pattern.match(text)
        if match:
            return _fill(template, match.groups(), _inner)
    for separator in _SEPARATORS:
        parts = separator.split(text)
        if len(parts) > 1:
            translated = [core_text(part) for part in parts]
            if translated != parts:
                return QCoreApplication.translate("CoreText", "; ").join(translated)
    return text


# Several phrases in one text: "; " between nodes or devices, ", " between the changes of one
# node (only before a phrase of its own, so "(10, 20)" stays whole).
_SEPARATORS = [re.compile(r"; "), re.compile(r", (?=rename |move )")]


def argument_name(name: str) -> str:
    """A tool argument's name as the user reads it."""
    known = ARGUMENT_NAMES.get(name)
    return _tr(known) if known else name


# Tool ids that are not in the tool registry: the practice engine's own sealed calls.
_OTHER_TOOL_NAMES = {
    "inject_practice_faults": QT_TRANSLATE_NOOP("ToolName", "Set up the exercise"),
    "restore_practice_snapshot": QT_TRANSLATE_NOOP("ToolName", "Restore the lab"),
}


@functools.cache
def _registry() -> ToolRegistry:
    """Every tool the app offers, for their display names and argument-only summaries (built
    on first use: nothing is compiled at import)."""
    from gns3_copilot_desktop.core.agent.tools.network import network_registry

    return network_registry(None)


def tool_display_name(tool_name: str) -> str:
    """A tool's name as the user reads it ("Delete nodes", "删除节点"), never its id; an id the
    app does not know is shown as words ("foo_bar" -> "Foo bar")."""
    known = _registry().display_names().get(tool_name) or _OTHER_TOOL_NAMES.get(tool_name)
    if known:
        return QCoreApplication.translate(TOOL_NAME_CONTEXT, known)
    words = tool_name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def call_summary(tool_name: str, arguments: dict[str, Any]) -> str | None:
    """The tool's own summary of a call from its arguments (translated), or None when the tool
    is unknown or the arguments do not validate (a call still streaming in)."""
    summary = _registry().call_summary(tool_name, arguments)
    return core_text(summary) if summary else None
