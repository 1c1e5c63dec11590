"""Database expressions the ORM lacks, written with its public API (`Func` and its per-backend
`as_<vendor>` methods), for PostgreSQL and SQLite alike."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db.models import F, Func, JSONField, Value


class JSONAppend(Func):
    """The JSON array in column `name` with `values` added at its end, in the statement itself:
    an UPDATE that appends sends what it adds, not the whole array again.

    PostgreSQL: `column || '[...]'::jsonb`. SQLite: `json_insert(column, '$[#]', json(?))` once
    per value (`$[#]` is the index one past the end)."""

    output_field = JSONField()

    def __init__(self, name: str, values: Sequence[Any]) -> None:
        if not values:
            raise ValueError("JSONAppend adds at least one value")
        self.values = list(values)
        super().__init__(F(name), Value(json.dumps(self.values)))

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(
            compiler, connection, template="(%(expressions)s::jsonb)", arg_joiner=" || ", **extra
        )

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        column, column_params = compiler.compile(self.source_expressions[0])
        sql = column
        params: list[Any] = list(column_params)
        for value in self.values:
            sql = f"json_insert({sql}, '$[#]', json(%s))"
            params.append(json.dumps(value))
        return sql, params
