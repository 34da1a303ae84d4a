"""docs/server.md: its Python example runs as written, and it names every endpoint and message."""

from __future__ import annotations

import doctest
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
    from cardtable.server.protocol import ErrorCode

    text = DOC.read_text(encoding="utf-8")
    codes = {str(c) for c in ErrorCode}
    store_codes = {cls.code for cls in vars(store).values() if isinstance(cls, type)
                   and issubclass(cls, store.StoreError)}
    assert store_codes <= codes
    assert {"stale_version", "not_your_turn", "game_over", "no_such_seat"} <= codes  # the table's
    missing = [c for c in codes if f"`{c}`" not in text]
    assert missing == []
