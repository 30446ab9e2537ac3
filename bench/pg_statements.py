"""What the service asks of PostgreSQL per turn, from ``pg_stat_statements`` (Debian's server
ships it): every statement the replicas ran between `reset` and `report`, counted by its text.

The benches start their PostgreSQL with `SETTINGS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

SETTINGS = ("shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=all")


@dataclass
class Statements:
    """Statement counts (calls, text) of one measured run, most called first."""

    rows: list[tuple[int, str]]

    @property
    def total(self) -> int:
        return sum(calls for calls, _ in self.rows)

    def lines(self, turns: int, top: int = 12) -> list[str]:
        """The most called statements, as calls per turn and the start of their text."""
        per = max(1, turns)
        out = [f"database statements per turn: {self.total / per:.1f} ({self.total} in {turns})"]
        for calls, text in self.rows[:top]:
            out.append(f"  {calls / per:6.2f}  {' '.join(text.split())[:96]}")
        return out


def reset(dsn: str) -> None:
    """Count from now (the extension is created in the service's database the first time)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        conn.execute("SELECT pg_stat_statements_reset()")


def report(dsn: str) -> Statements:
    """The statements run in the service's database since the last `reset` (this query's own
    connection's statements left out)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT calls, query FROM pg_stat_statements"
            " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC"
        ).fetchall()
    return Statements([(int(calls), str(query)) for calls, query in rows])
