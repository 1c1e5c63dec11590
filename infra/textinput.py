"""Text a client sends may not hold the NUL character (U+0000), anywhere.

PostgreSQL cannot store or even compare a string that holds NUL: a query with one fails
("A string literal cannot contain NUL"), which had answered 500 for a path like
`/api/players/%00/stats/`. No field of the project has a use for it, so a request or a socket
message that carries one is refused as malformed before any view or service sees it:
`config.middleware.NulRefusalMiddleware` for HTTP (path, query, cookies, body) and
`realtime.sockets.JsonSocket` for socket messages, both through `holds_nul`.
"""

from __future__ import annotations

import json
from typing import Any

NUL = "\x00"
#: NUL as JSON writes it inside a string.
JSON_NUL = b"\\u0000"

NUL_DETAIL = "Text may not contain the NUL character (U+0000)."


def holds_nul(value: Any) -> bool:
    """True when `value` (a string, or JSON-like lists and dicts of them, keys included) holds
    NUL anywhere."""
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(holds_nul(key) or holds_nul(item) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return any(holds_nul(item) for item in value)
    return False


def json_holds_nul(body: bytes | str) -> bool:
    """True when the JSON text `body` holds NUL in a string: a raw NUL byte, or an escaped
    one in a string (parsed to tell `\\u0000` from a literal backslash before it). A body that
    is not JSON is left to its parser, unless it holds a raw NUL byte."""
    raw = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    if b"\x00" in raw:
        return True
    if JSON_NUL not in raw:  # the common case: no parse
        return False
    try:
        return holds_nul(json.loads(raw))
    except (ValueError, RecursionError):
        return False
