"""Reads by one value whose SQL the ORM builds once per process and database.

Building the SQL of a query (the compiler's work: the columns of every model it selects, the
joins, the locks) costs more CPU than running it for the small reads every request makes: the
attempt a move works on, the player a cookie names. A `PreparedRead` lets the ORM build its
query once, with a stand-in value, and then runs that SQL with each real value, turning the row
into model instances exactly as the ORM's own iterator does (the same converters, the same
related objects filled in).

The compiled query is shared by all threads: what it keeps of the connection that built it is
only read (the database's operations and features, to convert values); each run takes the
calling thread's own connection.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=models.Model)


class PreparedRead(Generic[M]):
    """`read.first(value)`: the one row of `build(value)`, or None.

    `build` makes the queryset for a value; `slot` is a stand-in value of the right type that
    the built SQL must take as its one parameter. A locking read (`select_for_update`) runs only
    inside a transaction, as the ORM's own."""

    def __init__(self, build: Callable[[Any], models.QuerySet[M]], *, slot: Any) -> None:
        self._build = build
        self._slot = slot
        self._compiled: dict[str, _Compiled[M]] = {}
        self._lock = threading.Lock()

    def first(self, value: Any, *, using: str = DEFAULT_DB_ALIAS) -> M | None:
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(using)
                if compiled is None:
                    compiled = _Compiled(self._build(self._slot), self._slot, using)
                    self._compiled[using] = compiled
        return compiled.run(value)


class _Compiled(Generic[M]):
    def __init__(self, queryset: models.QuerySet[M], slot: Any, using: str) -> None:
        query = queryset.query
        self.using = using
        self.locking = bool(query.select_for_update)
        self._check_transaction()
        compiler = query.get_compiler(using=using)
        self.sql, params = compiler.as_sql()
        if list(params) != [slot]:
            raise ValueError(f"a prepared read takes its value as its one parameter: {params!r}")
        info, select = compiler.klass_info, compiler.select
        self.model: type[M] = info["model"]
        self.start, self.end = info["select_fields"][0], info["select_fields"][-1] + 1
        self.fields = [column[0].target.attname for column in select[self.start : self.end]]
        self.related = get_related_populators(info, select, using)
        self.compiler = compiler
        self.converters = compiler.get_converters([column[0] for column in select])

    def _check_transaction(self) -> None:
        if self.locking and connections[self.using].get_autocommit():
            raise TransactionManagementError("A locking read runs only inside a transaction.")

    def run(self, value: Any) -> M | None:
        self._check_transaction()
        with connections[self.using].cursor() as cursor:
            cursor.execute(self.sql, [value])
            rows = cursor.fetchmany(2)
        if not rows:
            return None
        if len(rows) > 1:
            raise self.model.MultipleObjectsReturned(f"{self.model.__name__}: more than one row")
        row = rows[0]
        if self.converters:
            row = next(iter(self.compiler.apply_converters([list(row)], self.converters)))
        instance = self.model.from_db(self.using, self.fields, row[self.start : self.end])
        for populator in self.related:
            populator.populate(row, instance)
        return instance


class PreparedUpdate(Generic[M]):
    """`update.save(instance)`: write the named fields of an existing row (`fields`, by name;
    every concrete field but the primary key when not given), as `instance.save(update_fields=
    ...)` does for a row that exists (each field's `pre_save`, then its value prepared for the
    database), with the UPDATE's SQL built once per database. No signals are sent (`pre_save`,
    `post_save`): a model written this way has no receivers of them. A row that is not there is
    an error, never an INSERT."""

    def __init__(self, model: type[M], fields: tuple[str, ...] | None = None) -> None:
        meta = model._meta
        self.model = model
        self.fields = [
            f
            for f in meta.concrete_fields
            if not f.primary_key and (fields is None or f.name in fields)
        ]
        if fields is not None and len(self.fields) != len(fields):
            raise ValueError(f"{model.__name__} has no concrete field among some of {fields}")
        for field in self.fields:
            if hasattr(field, "get_placeholder"):  # a value that is not a plain parameter
                raise TypeError(f"{model.__name__}.{field.name} needs a placeholder of its own")
        self._sql: dict[str, str] = {}

    def _sql_for(self, using: str) -> str:
        sql = self._sql.get(using)
        if sql is None:
            quote = connections[using].ops.quote_name
            meta = self.model._meta
            columns = ", ".join(f"{quote(f.column)} = %s" for f in self.fields)
            sql = f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(meta.pk.column)} = %s"
            self._sql[using] = sql
        return sql

    def save(self, instance: M, *, using: str | None = None) -> None:
        using = using or instance._state.db or DEFAULT_DB_ALIAS
        connection = connections[using]
        values = [
            field.get_db_prep_save(field.pre_save(instance, False), connection=connection)
            for field in self.fields
        ]
        with connection.cursor() as cursor:
            cursor.execute(self._sql_for(using), [*values, instance.pk])
            written = cursor.rowcount
        if written != 1:
            raise self.model.DoesNotExist(f"{self.model.__name__} {instance.pk} is not there")
        instance._state.adding = False
        instance._state.db = using
