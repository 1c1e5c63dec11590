"""Reads and writes that requests make often, their SQL built once per process and database.

Building the SQL of a query (the compiler's work: the columns of every model it selects, the
joins, the locks) costs more CPU than running it for the small reads every request makes: the
attempt a move works on, the player a cookie names. A `PreparedRead` lets the ORM build its
query once, with a stand-in value, and then runs that SQL with each real value, turning the row
into model instances exactly as the ORM's own iterator does (the same converters, the same
related objects filled in). `PreparedUpdate` writes the fields play changes (a move appends to
the history, guarded by what the row held when the move was read), `PreparedInsert` a start's
new row, as `save()` and `create()` would.

The compiled query is shared by all threads: what it keeps of the connection that built it is
only read (the database's operations and features, to convert values); each run takes the
calling thread's own connection and its usual cursor.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.query import get_related_populators
from django.db.models.signals import post_save, pre_save
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=models.Model)
K = TypeVar("K")
V = TypeVar("V")


class PreparedRead(Generic[M]):
    """`read.first(*values)`: the one row of `build(*values)`, or None; `read.all(*values)`:
    its rows. For a queryset of `values_list()` (columns and aggregates rather than models),
    `read.rows(*values)`: its rows as tuples, converted as the ORM converts them.

    `build` makes the queryset for its values; `slots` holds a stand-in value of the right type
    for each, in `build`'s order. Each stand-in must be found once among the built SQL's
    parameters (equal, of the same type), so pick ones no constant of the query equals; the
    query's other parameters are its constants. A locking read (`select_for_update`) runs only
    inside a transaction, as the ORM's own."""

    def __init__(self, build: Callable[..., models.QuerySet[M]], *, slots: tuple[Any, ...]) -> None:
        if not slots:
            raise TypeError("a prepared read takes at least one value")
        self._build = build
        self._slots = slots
        self._compiled: dict[str, _Compiled[M]] = {}
        self._lock = threading.Lock()

    def _for(self, using: str) -> _Compiled[M]:
        return _built_once(
            self._compiled,
            self._lock,
            using,
            lambda: _Compiled(self._build(*self._slots), self._slots, using),
        )

    def first(self, *values: Any, using: str = DEFAULT_DB_ALIAS) -> M | None:
        compiled = self._for(using)
        found = compiled.run(values, limit=2)
        if len(found) > 1:
            raise compiled.model.MultipleObjectsReturned(
                f"{compiled.model.__name__}: more than one row"
            )
        return found[0] if found else None

    def all(self, *values: Any, using: str = DEFAULT_DB_ALIAS) -> list[M]:
        return self._for(using).run(values, limit=None)

    def rows(self, *values: Any, using: str = DEFAULT_DB_ALIAS) -> list[tuple[Any, ...]]:
        return self._for(using).rows(values, limit=None)


class PreparedListRead(Generic[M]):
    """A `PreparedRead` whose last value is a list of ids (an `__in` lookup): `build(*values,
    ids)` makes its queryset, `slots` the stand-ins of the other values. The SQL is built once
    per length of the list, up to `most` ids; a longer list is read by the ORM as it is, and an
    empty one has no rows. `read.all(*values, ids=...)`, `read.rows(*values, ids=...)`."""

    def __init__(
        self, build: Callable[..., models.QuerySet[M]], *, slots: tuple[Any, ...] = (), most: int
    ) -> None:
        self._build = build
        self._slots = slots
        self.most = most
        self._reads: dict[int, PreparedRead[M]] = {}
        self._lock = threading.Lock()

    def _read(self, length: int) -> PreparedRead[M]:
        fixed = len(self._slots)
        stand_ins = tuple(-(10**12) - i for i in range(length))  # ids no query holds
        return _built_once(
            self._reads,
            self._lock,
            length,
            lambda: PreparedRead(
                lambda *values: self._build(*values[:fixed], values[fixed:]),
                slots=(*self._slots, *stand_ins),
            ),
        )

    def all(self, *values: Any, ids: list[int], using: str = DEFAULT_DB_ALIAS) -> list[M]:
        if not ids:
            return []
        if len(ids) > self.most:
            return list(self._build(*values, ids).using(using))
        return self._read(len(ids)).all(*values, *ids, using=using)

    def rows(
        self, *values: Any, ids: list[int], using: str = DEFAULT_DB_ALIAS
    ) -> list[tuple[Any, ...]]:
        if not ids:
            return []
        if len(ids) > self.most:
            return [tuple(row) for row in self._build(*values, ids).using(using)]
        return self._read(len(ids)).rows(*values, *ids, using=using)


def _built_once(cache: dict[K, V], lock: threading.Lock, key: K, build: Callable[[], V]) -> V:
    """`cache[key]`, made by `build` the first time it is asked for (under `lock`: once,
    whichever threads ask at the same moment)."""
    found = cache.get(key)
    if found is None:
        with lock:
            found = cache.get(key)
            if found is None:
                found = cache[key] = build()
    return found


def _same(slot: Any, param: Any) -> bool:
    return type(slot) is type(param) and slot == param


def _as_is(value: Any) -> Any:
    return value


class _Compiled(Generic[M]):
    def __init__(self, queryset: models.QuerySet[M], slots: tuple[Any, ...], using: str) -> None:
        query = queryset.query
        self.using = using
        self.locking = bool(query.select_for_update)
        self._check_transaction()
        compiler = query.get_compiler(using=using)
        self.sql, params = compiler.as_sql()
        #: The SQL's parameters: (a value's index, how the backend writes the value), or (None,
        #: a constant of the query).
        self.params: list[tuple[int | None, Any]] = []
        for param in params:
            found: list[tuple[int, Callable[[Any], Any]]]
            found = [(i, _as_is) for i, s in enumerate(slots) if _same(s, param)]
            if not found:  # a backend that writes the value as text (SQLite's dates)
                found = [(i, str) for i, s in enumerate(slots) if _same(str(s), param)]
            if len(found) > 1:
                raise ValueError(f"a prepared read's stand-ins must differ: {slots!r}")
            self.params.append(found[0] if found else (None, param))
        used = sorted(i for i, _ in self.params if i is not None)
        if used != list(range(len(slots))):
            raise ValueError(
                f"a prepared read takes each value as one parameter: {slots!r} in {params!r}"
            )
        info, select = compiler.klass_info, compiler.select
        self.model: type[M] = queryset.model
        #: Whether rows become models (`run`); a `values_list()` query's do not (`rows`).
        self.models = bool(query.default_cols) and info is not None
        if self.models:
            self.start, self.end = info["select_fields"][0], info["select_fields"][-1] + 1
            self.fields = [column[0].target.attname for column in select[self.start : self.end]]
            self.related = get_related_populators(info, select, using)
        self.compiler = compiler
        self.converters = compiler.get_converters([column[0] for column in select])

    def _check_transaction(self) -> None:
        if self.locking and connections[self.using].get_autocommit():
            raise TransactionManagementError("A locking read runs only inside a transaction.")

    def rows(self, values: tuple[Any, ...], limit: int | None) -> list[Any]:
        self._check_transaction()
        params = [how if i is None else how(values[i]) for i, how in self.params]
        with connections[self.using].cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall() if limit is None else cursor.fetchmany(limit)
        if self.converters:
            rows = [
                tuple(r)
                for r in self.compiler.apply_converters([list(r) for r in rows], self.converters)
            ]
        return rows

    def run(self, values: tuple[Any, ...], limit: int | None) -> list[M]:
        if not self.models:
            raise TypeError("a values_list() read gives rows, not models: use rows()")
        rows = self.rows(values, limit)
        found = []
        for row in rows:
            instance = self.model.from_db(self.using, self.fields, row[self.start : self.end])
            for populator in self.related:
                populator.populate(row, instance)
            found.append(instance)
        return found


class PreparedUpdate(Generic[M]):
    """`update.save(instance)`: one UPDATE of an existing row, with its SQL built once per
    database, that writes the fields of `fields` as `instance.save(update_fields=...)` does
    (each field's `pre_save`, then its value prepared for the database) and adds the last
    value of each JSON array field of `append` to the stored array (the statement sends that
    value, not the whole array).

    With `guard` (field names), `save(instance, guard=values)` changes nothing unless the row
    still holds those values (name -> value, taken before the instance changed): True when it
    wrote, False when the row had changed meanwhile. Without, a row that is not there is an
    error, never an INSERT. No signals are sent (`pre_save`, `post_save`): a model written this
    way has no receivers of them."""

    def __init__(
        self,
        model: type[M],
        *,
        fields: tuple[str, ...],
        append: tuple[str, ...] = (),
        guard: tuple[str, ...] = (),
    ) -> None:
        _without_save_receivers(model)
        self.model = model
        self.append = _plain_fields(model, lambda f: f.name in append)
        self.fields = _plain_fields(model, lambda f: f.name in fields)
        self.guard = _plain_fields(model, lambda f: f.name in guard)
        found = [len(self.append), len(self.fields), len(self.guard)]
        if found != [len(append), len(fields), len(guard)]:
            raise ValueError(f"{model.__name__} lacks a concrete field of {append, fields, guard}")
        self._sql: dict[str, str] = {}
        self._lock = threading.Lock()

    def _build_sql(self, using: str) -> str:
        _without_save_receivers(self.model)
        connection = connections[using]
        quote = connection.ops.quote_name
        sets = []
        if self.append:
            if connection.vendor == "postgresql":
                add = "{column} = {column} || %s::jsonb"
            elif connection.vendor == "sqlite":
                add = "{column} = json_insert({column}, '$[#]', json(%s))"  # $[#]: past the end
            else:
                raise NotImplementedError(f"no JSON append for {connection.vendor}")
            sets += [add.format(column=quote(f.column)) for f in self.append]
        sets += [f"{quote(f.column)} = %s" for f in self.fields]
        where = [f"{quote(self.model._meta.pk.column)} = %s"]
        where += [f"{quote(f.column)} = %s" for f in self.guard]
        table = quote(self.model._meta.db_table)
        return f"UPDATE {table} SET {', '.join(sets)} WHERE {' AND '.join(where)}"

    def save(
        self, instance: M, *, guard: dict[str, Any] | None = None, using: str | None = None
    ) -> bool:
        if (guard is None) != (not self.guard):
            raise TypeError("guard values are given exactly when the update has a guard")
        using = using or instance._state.db or DEFAULT_DB_ALIAS
        connection = connections[using]
        vendor = connection.vendor
        params: list[Any] = []
        for field in self.append:
            last = getattr(instance, field.attname)[-1]
            params.append(json.dumps([last] if vendor == "postgresql" else last))
        params += [
            field.get_db_prep_save(field.pre_save(instance, False), connection=connection)
            for field in self.fields
        ]
        params.append(instance.pk)
        if guard is not None:
            params += [
                field.get_db_prep_save(guard[field.name], connection=connection)
                for field in self.guard
            ]
        sql = _built_once(self._sql, self._lock, using, lambda: self._build_sql(using))
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            written = cursor.rowcount == 1
        if not written and guard is None:
            raise self.model.DoesNotExist(f"{self.model.__name__} {instance.pk} is not there")
        if written:
            instance._state.adding = False
            instance._state.db = using
        return written


class PreparedInsert(Generic[M]):
    """`insert.create(**values)`: a new row, as `Model.objects.create(**values)` makes it (the
    instance built with its defaults, each field's `pre_save`, then its value prepared for the
    database, the new primary key read back), with the INSERT's SQL built once per database.
    For a model without a `save()` of its own (which this would not call); no signals are sent
    (`pre_save`, `post_save`): a model written this way has no receivers of them."""

    def __init__(self, model: type[M]) -> None:
        if model.save is not models.Model.save:
            raise TypeError(f"{model.__name__} has a save() of its own, which an insert skips")
        _without_save_receivers(model)
        self.model = model
        self.fields = _plain_fields(model, lambda f: f is not model._meta.auto_field)
        self._sql: dict[str, tuple[str, bool]] = {}
        self._lock = threading.Lock()

    def _sql_for(self, using: str) -> tuple[str, bool]:
        """The INSERT, and whether it returns the new key itself."""
        return _built_once(self._sql, self._lock, using, lambda: self._build_sql(using))

    def _build_sql(self, using: str) -> tuple[str, bool]:
        _without_save_receivers(self.model)
        connection = connections[using]
        quote = connection.ops.quote_name
        meta = self.model._meta
        columns = ", ".join(quote(f.column) for f in self.fields)
        marks = ", ".join(["%s"] * len(self.fields))
        sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})"
        returns = connection.features.can_return_columns_from_insert
        if returns:
            sql += f" RETURNING {quote(meta.pk.column)}"
        return sql, returns

    def create(self, *, using: str = DEFAULT_DB_ALIAS, **values: Any) -> M:
        instance = self.model(**values)
        connection = connections[using]
        params = [
            field.get_db_prep_save(field.pre_save(instance, True), connection=connection)
            for field in self.fields
        ]
        sql, returns = self._sql_for(using)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if returns:
                key = cursor.fetchone()[0]
            else:
                meta = self.model._meta
                key = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
        instance.pk = key
        instance._state.adding = False
        instance._state.db = using
        return instance


def _without_save_receivers(model: type[models.Model]) -> None:
    """Refuse a model that has receivers of `pre_save` or `post_save`: a prepared write sends
    no signal, so they would silently miss its writes. Checked when the write is made and again
    when its SQL is first built (the receivers are connected once the apps are ready)."""
    if pre_save.has_listeners(model) or post_save.has_listeners(model):
        raise TypeError(
            f"{model.__name__} has receivers of pre_save or post_save, which a prepared write "
            "would not send: write it with save()"
        )


def _plain_fields(model: type[models.Model], keep: Callable[[Any], bool]) -> list[Any]:
    """The concrete fields of `model` that `keep` keeps, each a plain parameter of a
    statement (refused: a value that needs a placeholder of its own, a database default, a
    generated column)."""
    fields = [f for f in model._meta.concrete_fields if keep(f)]
    for field in fields:
        if (
            hasattr(field, "get_placeholder")
            or field.db_default is not models.NOT_PROVIDED
            or field.generated
        ):
            raise TypeError(f"{model.__name__}.{field.name} is not a plain parameter")
    return fields
