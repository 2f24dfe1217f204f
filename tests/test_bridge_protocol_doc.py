"""The worked examples of docs/protocol.md, section 7: the codec must produce exactly the bytes
the document shows, and decode them back. The fields are mirrored here from the prose above
each example; the bytes are read from the document itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from firmware_bridge.codec import body, encode
from firmware_bridge.events import piece_for_code
from firmware_bridge.firmware import protocol as P
from firmware_bridge.framer import Framer
from firmware_bridge.messages import (
    Error,
    Event,
    Heartbeat,
    Hello,
    Message,
    Ping,
    RequestSnapshot,
    SetLeds,
    SetParams,
    Snapshot,
)

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def _chess_start(identity: bool) -> bytes:
    variant = engine.find_variant("chess")
    board = engine.start_position(variant).board
    return bytes((piece_for_code(variant, c) if identity else 1) if c else 0 for c in board)


EXAMPLES: dict[str, Message] = {
    "hello": Hello(0x51B0A4D1, 64, P.CAP_LEDS, (1, 0, 0), 0x1234, 250, 5, 20, token=0, seq=0),
    "event-place": Event(28, P.ACTION_PLACE, P.PIECE_NONE, 12345, seq=7),
    "event-lift-identity": Event(12, P.ACTION_LIFT, ord("P"), 12000, seq=8),
    "snapshot-bitmap": Snapshot(1000, False, _chess_start(False), seq=1),
    "snapshot-pieces": Snapshot(1000, True, _chess_start(True), seq=1),
    "heartbeat": Heartbeat(12500, 0x1234, seq=9),
    "error": Error(P.ERR_BAD_CRC, P.NO_SEQ, seq=10),
    "request-snapshot": RequestSnapshot(seq=0),
    "set-leds": SetLeds(P.LED_BLINK, (12, 28), replace=True, seq=1),
    "ping": Ping(0x0001, seq=2),
    "set-params": SetParams(5, 20, 500, seq=3),
}


def doc_examples() -> dict[str, dict[str, bytes]]:
    """{name: {"body": bytes, "wire": bytes}} from the '### name' sections of section 7."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## 7. Worked examples", 1)[1].split("\n## ", 1)[0]
    out: dict[str, dict[str, bytes]] = {}
    for chunk in re.split(r"^### ", section, flags=re.M)[1:]:
        name = chunk.split("\n", 1)[0].strip()
        out[name] = {
            key: bytes.fromhex(value.replace("|", " "))
            for key, value in re.findall(r"^(body|wire): (.*)$", chunk, flags=re.M)
        }
    return out


def test_the_document_has_an_example_of_every_frame_type():
    examples = doc_examples()
    assert set(examples) == set(EXAMPLES)
    shown = {type(m) for m in EXAMPLES.values()}
    assert shown == {Hello, Event, Snapshot, Heartbeat, Error, RequestSnapshot, SetLeds, Ping, SetParams}
    for name, lines in examples.items():
        assert set(lines) == {"body", "wire"}, name


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_codec_produces_the_documented_bytes(name: str) -> None:
    shown = doc_examples()[name]
    message = EXAMPLES[name]
    assert body(message) == shown["body"]
    assert encode(message) == shown["wire"]
    assert P.cobs_encode(shown["body"]) + b"\x00" == shown["wire"]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_documented_bytes_decode_to_the_documented_fields(name):
    message = EXAMPLES[name]
    accept = P.BOARD_TYPES if isinstance(message, Hello | Event | Snapshot | Heartbeat | Error) else P.HOST_TYPES
    framer = Framer(accept)
    assert framer.feed(doc_examples()[name]["wire"]) == [message]


def test_documented_crc_check_value():
    assert "`0x29B1`" in DOC.read_text(encoding="utf-8")
    assert P.crc16(b"123456789") == 0x29B1
