"""The phrases of the app's notices (pattern, template): what the GNS3 server answered or failed
to, why a model cannot be used (or offered only some tools), and the errors a turn ends with."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


# The tools offered when the model's context window is too small for all of them.
NOTICE_PHRASES: list[tuple[str, str]] = [
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

# What the GNS3 server answered or failed to (core/gns3/_errors.py): headers, banners, login.
NOTICE_PHRASES += [
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
NOTICE_PHRASES += [
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
NOTICE_PHRASES += [
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
]
