"""docs/server.md: its Python example runs as written, and it names every endpoint and message."""

from __future__ import annotations

import ast
import doctest
from collections.abc import Iterator
from pathlib import Path

from cardtable.server import ServerSettings, create_app
from cardtable.server.protocol import ClientMessage, ServerMessage

DOC = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def test_the_example_runs() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_every_endpoint_and_message_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    app = create_app(ServerSettings())
    for path, methods in app.openapi()["paths"].items():
        for method in methods:
            assert f"`{method.upper()} {path}" in text, (method, path)
    for adapter in (ClientMessage, ServerMessage):
        for kind in adapter.json_schema()["discriminator"]["mapping"]:
            assert f'"type": "{kind}"' in text, kind


def test_every_error_code_is_one_of_the_protocol_and_documented() -> None:
    import cardtable.store as store
    from cardtable.core.errors import ErrorCode

    text = DOC.read_text(encoding="utf-8")
    codes = {str(c) for c in ErrorCode}
    store_codes = {cls.code for cls in vars(store).values() if isinstance(cls, type)
                   and issubclass(cls, store.StoreError)}
    assert store_codes <= codes
    assert {"stale_version", "not_your_turn", "game_over", "no_such_seat", "not_an_agent", "cannot_undo"} <= codes
    missing = [c for c in codes if f"`{c}`" not in text]
    assert missing == []


def _code_arguments(tree: ast.AST) -> Iterator[tuple[int, ast.expr]]:
    """Every code given to a refusal or an error message: ``Refusal(code, ...)``, ``ErrorMsg(code=...)``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("Refusal", "ErrorMsg"):
            if node.func.id == "Refusal" and node.args:
                yield node.lineno, node.args[0]
            for keyword in node.keywords:
                if keyword.arg == "code":
                    yield node.lineno, keyword.value


def test_the_server_and_its_pages_send_only_error_codes_of_the_closed_set() -> None:
    """No free-string code: every code the server or a page route sends is an ``ErrorCode`` member, named as
    such, or passed on from a refusal that holds one (``Refusal.code`` is typed ``ErrorCode``)."""
    from cardtable.core.errors import ErrorCode

    src = Path(__file__).resolve().parents[2] / "src" / "cardtable"
    seen = 0
    for path in sorted([*(src / "server").rglob("*.py"), *(src / "web").rglob("*.py")]):
        for line, arg in _code_arguments(ast.parse(path.read_text(encoding="utf-8"))):
            seen += 1
            where = f"{path.relative_to(src)}:{line}"
            assert not isinstance(arg, (ast.Constant, ast.JoinedStr)), where  # the rest is typed ErrorCode
            if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "ErrorCode":
                assert arg.attr in ErrorCode.__members__, where
    assert seen > 40
