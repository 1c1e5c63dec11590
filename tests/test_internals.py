"""The tripwire of docs/internals.md, the register of the framework internals the code touches.

- Each library is the version the register was read against (`VERSIONS`).
- Each upstream method the code copies, overrides or mirrors is the source the register was
  read against (`UPSTREAM`: the sha256 of its `inspect.getsource`).
- The project's sources touch no internal of those libraries that the register does not list,
  and each internal the register lists is still touched where it says (`REGISTERED`). The
  detector reads each module's syntax tree (the apps and config; not benchmarks, which touch
  none, nor tests, which read some to check them) and counts:

  - an import of a private name of a library, or from a private module of one;
  - a private name (one leading underscore) reached, or a method defined, on `self`, `cls` or
    `super()` in a class whose library bases have that name: an extended or overridden hook,
    a private attribute of the base;
  - a private name that a library's source has, reached on any other object
    (`connection._cursor()`, `getattr(request, "_request")`), unless it is one of the
    project's own names reached on the project's own objects (`PROJECT_PRIVATE`);
  - a string literal that is a private name in a library's source (a button the admin reads),
    or a key of a library's message layout (`UNDOCUMENTED_STRINGS`);
  - undocumented names without an underscore: names of library modules, imported from them or
    reached on them (`UNDOCUMENTED_IMPORTS`), and attributes of library objects
    (`UNDOCUMENTED_ATTRIBUTES`).

  Django's documented `Model._meta` API is public, not an internal (`DOCUMENTED`).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import re
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REGISTER = ROOT / "docs" / "internals.md"
SOURCES = (
    "config",
    "frontend",
    "games",
    "infra",
    "leaderboards",
    "leagues",
    "races",
    "ratings",
    "realtime",
)

#: Distribution name -> the version docs/internals.md was read against.
VERSIONS = {
    "Django": "5.2.19",
    "djangorestframework": "3.18.3",
    "channels": "4.3.2",
    "channels-redis": "4.3.0",
    "asgiref": "3.13.0",
    "psycopg": "3.3.9",
    "redis": "8.1.0",
    "uvicorn": "0.54.0",
}

#: The import names of those libraries.
LIBRARIES = (
    "django",
    "rest_framework",
    "channels",
    "channels_redis",
    "asgiref",
    "psycopg",
    "redis",
    "uvicorn",
    "whitenoise",
)

#: (module, class and attribute) of each upstream method the code copies, overrides or mirrors,
#: as resolved on the class the code subclasses -> (sha256 of its source, where it is ours).
UPSTREAM = {
    ("django.core.handlers.asgi", "ASGIHandler.__call__"): (
        "f756809e9c9308dcccb78a301fccf09196e80cdc4745690f80384d09b69dd102",
        "config/handler.py SyncStackASGIHandler.__call__",
    ),
    ("django.core.handlers.asgi", "ASGIHandler.handle"): (
        "98faeb5bef800331e6a8002fbc96b30e4122a23438ae45a047190a531ea11323",
        "config/handler.py SyncStackASGIHandler.handle",
    ),
    ("django.core.handlers.asgi", "ASGIHandler.run_get_response"): (
        "0234ea5fe09a577785a5f895752910cbb439f5e28ebb53bdd27247251c00e6ef",
        "config/handler.py SyncStackASGIHandler._respond",
    ),
    ("django.core.handlers.asgi", "ASGIHandler.load_middleware"): (
        "a1fb7ee5f8586195da2174d1bbc2bbfc7ca19b9d26ea66412cb434f45bf6d467",
        "config/handler.py SyncStackASGIHandler.load_middleware",
    ),
    ("django.db.models.query", "ModelIterable.__iter__"): (
        "c2a744b8c18e0b4a5b85d9b644e8fff74ed239e168f4eda77be0ba5fc5e9cee9",
        "infra/prepared.py _Compiled.run",
    ),
    ("django.db.models.sql.compiler", "SQLCompiler.results_iter"): (
        "d279d61b80a3a1158af6029d13d8410a7aa2a2ab25b67929dda125a6fd459313",
        "infra/prepared.py _Compiled.rows",
    ),
    ("django.db.models.base", "Model.save_base"): (
        "8dfb6c7b18b4cecef0802d89a939eb40c12ec1428a568871f1ae351272de12bd",
        "infra/prepared.py PreparedUpdate.save, PreparedInsert.create",
    ),
    ("django.db.backends.sqlite3.base", "DatabaseWrapper._start_transaction_under_autocommit"): (
        "7315cfc61c1dde12afa3e1dd77790b874b07c8261f505760fcd5f169d1aae763",
        "config/sqlite/base.py DatabaseWrapper",
    ),
    ("django.db.backends.sqlite3.base", "DatabaseWrapper._commit"): (
        "8ebc361e1e8fcb8d33ccb0e4074b5d638269a87a037b7013d6a86fe116388b39",
        "config/sqlite/base.py DatabaseWrapper",
    ),
    ("django.db.backends.sqlite3.base", "DatabaseWrapper._rollback"): (
        "d671ec3bb3c8ed44da28e4a9c17ad387daa3eaee712d38b7af61219492916e07",
        "config/sqlite/base.py DatabaseWrapper",
    ),
    ("django.db.backends.sqlite3.base", "DatabaseWrapper._close"): (
        "d1a3f0e9a11cd0842ea402c2f180e6d1f116753ccc15064e1daef66faa531e7a",
        "config/sqlite/base.py DatabaseWrapper",
    ),
    ("django.db.backends.postgresql.base", "DatabaseWrapper.pool"): (
        "e5c2654fdf2d50900fec9db41948d0b026da988e24d0eba1b4b9a9d4aacb1b17",
        "config/postgresql/base.py DatabaseWrapper.pool",
    ),
    ("django.db.backends.postgresql.base", "DatabaseWrapper.get_new_connection"): (
        "acc4e253c2e311a4b5faa39afcc9b1d9920124606df2fc1094c5ea11ca6230dd",
        "config/postgresql/base.py FailFastPool.getconn",
    ),
    ("django.forms.models", "ModelForm._post_clean"): (
        "7ac9e513c344a3328578b18ebe81d1193878c6f2a1d6097b97764c3040a11c39",
        "games/admin/base.py ServiceForm._post_clean",
    ),
    ("rest_framework.request", "Request._parse"): (
        "473a3f39b806d6d33c614f1183e2f1b563d80ddd349124ea00745b7844f3eb4d",
        "config/renderers.py SafeBrowsableAPIRenderer.render",
    ),
    ("rest_framework.serializers", "Serializer.to_representation"): (
        "f2d1de6d682c8395853718aa33c7d45315ecc1f1dce0221fa7caf1c8cbb7d4f8",
        "games/api/serializers.py PlannedRepresentation",
    ),
    ("rest_framework.serializers", "ListSerializer.to_representation"): (
        "b4fe0cf6b01bff49dc80266e8bdf922e819537e67781887356afeac63a138846",
        "games/api/serializers.py _renderer",
    ),
    ("rest_framework.fields", "Field.get_attribute"): (
        "d6478027a6aad6685ac668b8e37a5df76809dc2014b3f192a4e045c418d9e00e",
        "games/api/serializers.py _finder",
    ),
    ("rest_framework.fields", "ListField.to_representation"): (
        "d876f98618008f4b4563c2c39d031901b71d6cee7825233a5d7569f4ffe67af6",
        "games/api/serializers.py _renderer",
    ),
    ("rest_framework.fields", "DictField.to_representation"): (
        "f31f5f5e12c6b0df571c2a9066d7b0d62e9261d0681d088faf9a93f92081fa9f",
        "games/api/serializers.py _renderer",
    ),
    ("rest_framework.serializers", "Serializer.run_validation"): (
        "7ed44b9eb28d14f11b17b4a08e676301759af4d5680774de2dfafb40ad6d8354",
        "games/api/serializers.py StrictSerializer.parse",
    ),
    ("rest_framework.throttling", "SimpleRateThrottle.__init__"): (
        "ee96e4435c1db5a20ac62e51d9385e27dfebb1f2e86b1667323e6d401a927f96",
        "games/api/throttles.py ScopeThrottle.__init__",
    ),
    ("rest_framework.throttling", "SimpleRateThrottle.parse_rate"): (
        "d056ead866e2d5d060bd370c5e8c7619d97cabc1c9fefaa7ece69c8696831f26",
        "games/api/throttles.py counters_for",
    ),
    ("channels.generic.websocket", "AsyncWebsocketConsumer.dispatch"): (
        "39f34e7d4fb0f6552de4ade665b943fe78137379702af6b58c79a14c49a75520",
        "realtime/sockets.py JsonSocket.dispatch",
    ),
    ("channels_redis.core", "RedisChannelLayer.new_channel"): (
        "339845a6686b40a521353ff5d0d3649484829d3e814a7a7d0ff19600f2e4a355",
        "realtime/layer.py ReaderChannelLayer.new_channel",
    ),
    ("channels_redis.core", "RedisChannelLayer.send"): (
        "1b2ad54990702acba18fa5a1ffca39c6bfe32cdd97bd6ec524d18882c674933a",
        "realtime/layer.py _Reader._read",
    ),
    ("channels_redis.core", "RedisChannelLayer.receive"): (
        "158a09895d9a7c8ed3db4aae70514dc7ad3ed81a2af73545f8c65bf4c82b6a57",
        "realtime/layer.py ReaderChannelLayer.receive",
    ),
    ("channels_redis.core", "RedisChannelLayer.group_send"): (
        "c9623ea6ccfa73085599ef24a8e7c0a5b06ffae0cba6daef8a6a2d7e7a0dfc91",
        "realtime/layer.py ReaderChannelLayer.group_send_many",
    ),
    ("channels_redis.core", "RedisChannelLayer._group_key"): (
        "7e89938e1cb20f266f205f67c0adc192635bfe82d40d1afa2f88051f2e80af9a",
        "realtime/layer.py ReaderChannelLayer.group_send_many",
    ),
    ("channels_redis.core", "RedisChannelLayer._map_channel_keys_to_connection"): (
        "789f9193b4536625caca99079921da89d023e43f69b002eea669898784f91d2d",
        "realtime/layer.py ReaderChannelLayer.group_send_many",
    ),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.__init__"): (
        "4f08999410347141468656d82e71ffebccb59f09e41909a3753a810eeed685fa",
        "config/serving.py HeadBoundProtocol.__init__",
    ),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.connection_made"): (
        "6efb565ff3d36b916c29bd42330a2b99b601b48932389e396e5ac53dbef6b91c",
        "config/serving.py HeadBoundProtocol.connection_made",
    ),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.connection_lost"): (
        "c91a4c9bf2e29c554a97418b5f3064e97f6e0ceaba3b90fc35a3460076c705ab",
        "config/serving.py HeadBoundProtocol.connection_lost",
    ),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.data_received"): (
        "010a7ae59a5d3b1a5e7326ce246878568629d126a076d8af5ba10cab040fae43",
        "config/serving.py HeadBoundProtocol.data_received",
    ),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.on_message_begin"): (
        "96d377fdc7c2baef943c2bd245003abc53566ddb35777e0f4c7bc754198b5457",
        "config/serving.py HeadBoundProtocol.on_message_begin",
    ),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.on_headers_complete"): (
        "1ea8589acfad92d8ff9182775f337d98fc469e0fa39642a83195fca920f5ca96",
        "config/serving.py HeadBoundProtocol.on_headers_complete",
    ),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.on_body"): (
        "dba9c32aeba35b6ae10722f86232d44d93fda42d97711244eeaa51c0a1f3e1c9",
        "config/serving.py HeadBoundProtocol.on_body",
    ),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.on_message_complete"): (
        "1fbad42dc31fc01fd4106a9885b2a2e0f6ce8d38241a3df0f615c6a8663493e0",
        "config/serving.py HeadBoundProtocol.on_message_complete",
    ),
}

#: Underscore names that are documented public API.
DOCUMENTED = {"_meta"}

#: Private names of the project's own classes, reached on their instances other than `self`,
#: that some library's source happens to have too.
PROJECT_PRIVATE = {"_setup"}  # games/engine: Game._setup

#: Internals whose names have no underscore: undocumented names of library modules (module ->
#: names, imported from it or reached on it), attributes of library objects, keys of a
#: library's messages.
UNDOCUMENTED_IMPORTS = {
    "channels.consumer": {"get_handler_name"},
    "channels_redis.core": {"BoundedQueue"},
    "django.contrib.admin.options": {"IS_POPUP_VAR"},
    "django.contrib.admin.utils": {"unquote"},
    "django.core.handlers.asgi": {"get_script_prefix"},
    "django.db.models.query": {"get_related_populators"},
    "django.http.request": {"split_domain_port", "validate_host"},
    "django.urls": {"get_resolver"},
    "django.utils.dates": {"WEEKDAYS_ABBR"},
    "django.utils.translation": {"trans_real"},
    "rest_framework.fields": {"get_attribute"},
    "rest_framework.views": {"set_rollback"},
}
UNDOCUMENTED_ATTRIBUTES = {
    "apply_converters",
    "brpop_timeout",
    "client_prefix",
    "connection_class",
    "connection_kwargs",
    "consistent_hash",
    "create_connection",
    "default_cols",
    "get_compiler",
    "get_converters",
    "group_expiry",
    "klass_info",
    "non_local_name",
    "source_attrs",
}
UNDOCUMENTED_STRINGS = {"__asgi_channel__"}

#: (file, internal): every internal the detector finds, each listed in a row of
#: docs/internals.md that names the file.
REGISTERED = {
    ("config/handler.py", "_handler_class"),
    ("config/handler.py", "get_script_prefix"),
    ("config/renderers.py", "_data"),
    ("config/renderers.py", "_files"),
    ("config/renderers.py", "_full_data"),
    ("config/renderers.py", "_request"),
    ("config/server.py", "get_resolver"),
    ("config/server.py", "trans_real"),
    ("config/sqlite/base.py", "_close"),
    ("config/sqlite/base.py", "_commit"),
    ("config/sqlite/base.py", "_rollback"),
    ("config/sqlite/base.py", "_start_transaction_under_autocommit"),
    ("frontend/views.py", "WEEKDAYS_ABBR"),
    ("games/admin/attempts.py", "unquote"),
    ("games/admin/base.py", "_post_clean"),
    ("games/admin/dailies.py", "unquote"),
    ("games/admin/deals.py", "IS_POPUP_VAR"),
    ("games/admin/deals.py", "_addanother"),
    ("games/admin/deals.py", "unquote"),
    ("games/admin/review.py", "unquote"),
    ("games/api/errors.py", "_request"),
    ("games/api/errors.py", "set_rollback"),
    ("games/api/identity.py", "_request"),
    ("games/api/serializers.py", "_readable_fields"),
    ("games/api/serializers.py", "get_attribute"),
    ("games/api/serializers.py", "source_attrs"),
    ("infra/ratewindows.py", "connection_class"),
    ("infra/ratewindows.py", "connection_kwargs"),
    ("games/api/throttles.py", "create_connection"),
    ("games/api/views.py", "_request"),
    ("infra/prepared.py", "_state"),
    ("infra/prepared.py", "apply_converters"),
    ("infra/prepared.py", "default_cols"),
    ("infra/prepared.py", "get_compiler"),
    ("infra/prepared.py", "get_converters"),
    ("infra/prepared.py", "get_related_populators"),
    ("infra/prepared.py", "klass_info"),
    ("realtime/layer.py", "BoundedQueue"),
    ("realtime/layer.py", "__asgi_channel__"),
    ("realtime/layer.py", "_group_key"),
    ("realtime/layer.py", "_map_channel_keys_to_connection"),
    ("realtime/layer.py", "brpop_timeout"),
    ("realtime/layer.py", "client_prefix"),
    ("realtime/layer.py", "consistent_hash"),
    ("realtime/layer.py", "group_expiry"),
    ("realtime/layer.py", "non_local_name"),
    ("realtime/origin.py", "split_domain_port"),
    ("realtime/origin.py", "validate_host"),
    ("realtime/sockets.py", "get_handler_name"),
}


# -- the detector -------------------------------------------------------------------------------

PRIVATE = re.compile(r"_[A-Za-z]\w*")


def _private(name: str) -> bool:
    return PRIVATE.fullmatch(name) is not None and name not in DOCUMENTED


def _from_library(module: str) -> bool:
    return module.split(".")[0] in LIBRARIES


@functools.cache
def library_names() -> tuple[frozenset[str], frozenset[str]]:
    """The private names the libraries' sources define or reach as attributes, and the private
    names they hold as string literals."""
    defined = re.compile(r"(?:\bdef\s+|\bclass\s+|\.|^\s*)(_[A-Za-z]\w*)\b", re.M)
    quoted = re.compile(r"""["'](_[A-Za-z]\w*)["']""")
    names: set[str] = set()
    strings: set[str] = set()
    for library in LIBRARIES:
        spec = importlib.util.find_spec(library)
        assert spec is not None and spec.submodule_search_locations, library
        for location in spec.submodule_search_locations:
            for path in sorted(Path(location).rglob("*.py")):
                text = path.read_text(errors="replace")
                names.update(defined.findall(text))
                strings.update(quoted.findall(text))
    return frozenset(names), frozenset(strings)


@functools.cache
def base_names(cls: type | None) -> frozenset[str]:
    """The names the library classes among `cls`'s bases define or set on `self` or `cls`:
    none for a class without a library base (the project's own), or unknown (None)."""
    names: set[str] = set()
    for base in cls.__mro__[1:] if cls is not None else ():
        if not _from_library(base.__module__):
            continue
        names.update(vars(base))
        try:
            source = inspect.getsource(base)
        except (OSError, TypeError):
            continue
        names.update(re.findall(r"\b(?:self|cls)\.(_[A-Za-z]\w*)\b", source))
    return frozenset(names)


class Module(ast.NodeVisitor):
    """The internals one module's source touches (`found`). `classes(qualified name)` is the
    module's class of that name, or None."""

    def __init__(self, source: str, classes: Callable[[str], type | None]) -> None:
        self.classes = classes
        self.found: set[str] = set()
        self.enclosing: list[str] = []  # the qualified names of the classes around a node
        self.modules: dict[str, str] = {}  # a name imported from a library -> its path
        self.visit(ast.parse(source))

    def _on_self(self, name: str) -> None:
        """`name` on `self`, `cls` or `super()`, or a method of the enclosing class."""
        if self.enclosing and name in base_names(self.classes(self.enclosing[-1])):
            self.found.add(name)

    def _elsewhere(self, name: str) -> None:
        """`name` on an object other than `self`, `cls` or `super()`."""
        if name in library_names()[0] and name not in PROJECT_PRIVATE:
            self.found.add(name)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.enclosing.append(".".join([*self.enclosing[-1:], node.name]))
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and _private(item.name):
                self._on_self(item.name)
        self.generic_visit(node)
        self.enclosing.pop()

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not _from_library(alias.name):
                continue
            if alias.asname:
                self.modules[alias.asname] = alias.name
            if any(map(_private, alias.name.split("."))):
                self.found.add(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not _from_library(module):
            return
        if any(map(_private, module.split("."))):
            self.found.add(module)
        for alias in node.names:
            if _private(alias.name) or alias.name in UNDOCUMENTED_IMPORTS.get(module, ()):
                self.found.add(alias.name)
            self.modules[alias.asname or alias.name] = f"{module}.{alias.name}"

    def _attribute(self, owner: ast.expr, name: str) -> None:
        module = self.modules.get(owner.id, "") if isinstance(owner, ast.Name) else ""
        if name in UNDOCUMENTED_ATTRIBUTES or name in UNDOCUMENTED_IMPORTS.get(module, ()):
            self.found.add(name)
        elif not _private(name):
            return
        elif (isinstance(owner, ast.Name) and owner.id in ("self", "cls")) or (
            isinstance(owner, ast.Call)
            and isinstance(owner.func, ast.Name)
            and owner.func.id == "super"
        ):
            self._on_self(name)
        else:
            self._elsewhere(name)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._attribute(node.value, node.attr)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        named = node.args[1] if len(node.args) > 1 else None
        if (
            isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
            and isinstance(named, ast.Constant)
            and isinstance(named.value, str)
        ):
            self._attribute(node.args[0], named.value)
            for child in [node.args[0], *node.args[2:], *node.keywords]:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        text = node.value
        if isinstance(text, str) and (
            text in UNDOCUMENTED_STRINGS or (_private(text) and text in library_names()[1])
        ):
            self.found.add(text)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _classes_of(module: str) -> Callable[[str], type | None]:
    """The classes of `module` by qualified name (the module imported at the first ask)."""

    def find(qualname: str) -> type | None:
        found: object = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part, None)
        return found if isinstance(found, type) else None

    return find


def internals(
    modules: dict[str, str], classes: Callable[[str], Callable[[str], type | None]]
) -> set[tuple[str, str]]:
    """(file, internal) for each internal the sources (file -> source) touch; `classes(file)`
    finds the classes of a file's module."""
    return {
        (path, name)
        for path, source in modules.items()
        for name in Module(source, classes(path)).found
    }


@functools.cache
def project_internals() -> frozenset[tuple[str, str]]:
    paths = sorted(p for package in SOURCES for p in (ROOT / package).rglob("*.py"))
    sources = {str(p.relative_to(ROOT)): p.read_text() for p in paths}
    return frozenset(internals(sources, lambda path: _classes_of(_module_name(ROOT / path))))


def register_rows() -> list[str]:
    return [line for line in REGISTER.read_text().splitlines() if line.startswith("|")]


def listed(path: str, name: str) -> bool:
    """Whether a row of the register names `path` and `name`."""
    word = re.compile(rf"(?<![\w]){re.escape(name)}(?!\w)")
    return any(path in row and word.search(row) for row in register_rows())


# -- the tests ----------------------------------------------------------------------------------


def test_the_libraries_are_the_versions_the_register_was_read_against():
    text = REGISTER.read_text()
    differ = {
        name: importlib.metadata.version(name)
        for name in VERSIONS
        if importlib.metadata.version(name) != VERSIONS[name]
    }
    assert differ == {}, (
        f"installed {differ}, but docs/internals.md was read against {VERSIONS}: read each "
        "internal of the register again in the new versions (and run this module: the pinned "
        "sources say which changed), then update the register's versions and VERSIONS here"
    )
    unnamed = [f"{name} {version}" for name, version in VERSIONS.items()]
    assert [v for v in unnamed if v not in text] == [], "docs/internals.md names its versions"


def upstream_source(module: str, qualname: str) -> str:
    owner_name, attribute = qualname.rsplit(".", 1)
    owner: object = importlib.import_module(module)
    for part in owner_name.split("."):
        owner = getattr(owner, part)
    assert isinstance(owner, type), qualname
    for klass in owner.__mro__:  # the method as the class resolves it, wherever defined
        if attribute in vars(klass):
            found = vars(klass)[attribute]
            break
    else:
        raise AssertionError(f"{module}.{qualname} is gone")
    if isinstance(found, property):
        found = found.fget
    if isinstance(found, staticmethod | classmethod):
        found = found.__func__
    return inspect.getsource(found)


def test_the_upstream_methods_copied_or_overridden_are_the_source_the_register_read():
    changed = [
        f"{module}.{qualname} (ours: {ours})"
        for (module, qualname), (digest, ours) in UPSTREAM.items()
        if hashlib.sha256(upstream_source(module, qualname).encode()).hexdigest() != digest
    ]
    assert changed == [], (
        "upstream source changed since docs/internals.md was read: compare each with ours, "
        "run the tests its row names, then update the row and the hash here: " + "; ".join(changed)
    )


def test_every_upstream_method_pinned_is_named_in_the_register():
    unnamed = [
        f"{qualname} ({ours})"
        for (_, qualname), (_, ours) in UPSTREAM.items()
        if not listed(ours.split()[0], qualname.rsplit(".", 1)[1])
    ]
    assert unnamed == [], f"docs/internals.md names no such method in a row of its file: {unnamed}"


def test_every_internal_the_code_touches_is_in_the_register():
    unlisted = sorted(project_internals() - REGISTERED)
    assert unlisted == [], (
        f"framework internals not in docs/internals.md: {unlisted}. Use the public API, or add "
        "a row to the register (why, what it pays, the test that catches a change) and the "
        "entry to REGISTERED; a name of the project's own objects goes in PROJECT_PRIVATE"
    )
    unnamed = sorted(entry for entry in REGISTERED if not listed(*entry))
    assert unnamed == [], f"REGISTERED entries no row of docs/internals.md names: {unnamed}"


def test_the_register_lists_no_internal_the_code_no_longer_touches():
    gone = sorted(REGISTERED - project_internals())
    assert gone == [], f"no longer touched: take these out of docs/internals.md and here: {gone}"


NEW_MODULE = """
from django.db import connection
from django.db.backends.sqlite3 import base
from psycopg._cursor_base import BaseCursor


def rows():
    with connection._cursor() as cursor:
        return getattr(cursor, "_query", None), BaseCursor


class Wrapper(base.DatabaseWrapper):
    def _savepoint(self, sid):
        return super()._savepoint(sid)

    def _ours(self):
        return self._also_ours


class Plain:
    def _commit(self):
        return self._pool


def pool_settings(pool):
    return pool.connection_kwargs, game._setup()
"""


def test_the_detector_finds_internals_in_a_new_module():
    namespace: dict[str, object] = {}
    exec(compile(NEW_MODULE, "games/new.py", "exec"), namespace)

    def classes(path: str) -> Callable[[str], type | None]:
        return lambda qualname: namespace.get(qualname)  # type: ignore[return-value]

    found = internals({"games/new.py": NEW_MODULE}, classes)

    assert found == {
        ("games/new.py", "psycopg._cursor_base"),
        ("games/new.py", "_cursor"),
        ("games/new.py", "_query"),
        ("games/new.py", "_savepoint"),
        ("games/new.py", "connection_kwargs"),
    }
    assert not found & REGISTERED
