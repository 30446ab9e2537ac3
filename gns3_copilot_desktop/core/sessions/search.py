"""Turn what a user typed into a safe FTS5 query.

Every word is quoted as an FTS5 string, so operators and punctuation in user input (``"``, ``*``,
``-``, ``OR``, ``NEAR``, ``:``, parentheses) are searched for as text and never raise a syntax
error. Words are ANDed; the last one also matches as a prefix, for search-as-you-type.
"""

from __future__ import annotations

import unicodedata

MAX_WORDS = 16


def _has_token_chars(word: str) -> bool:
    # FTS5's unicode61 tokenizer keeps letters, numbers and marks; a word without any of them
    # yields no token, and an empty phrase would match nothing.
    return any(unicodedata.category(ch)[0] in "LNM" for ch in word)


def build_match_query(text: str) -> str | None:
    """The FTS5 MATCH expression for ``text``, or None when it contains nothing searchable."""
    words = [w for w in text.split() if _has_token_chars(w)][:MAX_WORDS]
    if not words:
        return None
    quoted = ['"' + w.replace('"', '""') + '"' for w in words]
    quoted[-1] += "*"
    return " ".join(quoted)
