"""build_match_query: user words become a safe FTS5 expression."""

from __future__ import annotations

from gns3_copilot_desktop.core.sessions.search import MAX_WORDS, build_match_query


def test_words_are_quoted_and_anded_with_prefix_on_the_last() -> None:
    assert build_match_query("ospf area") == '"ospf" "area"*'


def test_quotes_are_doubled_and_operators_are_text() -> None:
    assert build_match_query('say "hi" OR NOT') == '"say" """hi""" "OR" "NOT"*'


def test_nothing_searchable_gives_none() -> None:
    assert build_match_query("") is None
    assert build_match_query('  - * ( ) " ') is None


def test_word_count_is_capped() -> None:
    query = build_match_query(" ".join(f"w{i}" for i in range(MAX_WORDS + 10)))
    assert query is not None
    assert query.count('"') == 2 * MAX_WORDS
