"""The byte-level encodings a frame goes through: CRC-16/CCITT-FALSE over its body and COBS
(Cheshire & Baker) byte stuffing, so the only 0x00 on the wire is a frame's delimiter.

Portable, like ``protocol`` (which uses these and offers them under its own name): runs
unchanged on MicroPython and CPython. docs/protocol.md says where each is applied.
"""

try:
    # CPython: crc_hqx with an initial value of 0xFFFF *is* CRC-16/CCITT-FALSE, in C.
    from binascii import crc_hqx as _crc_hqx
except ImportError:  # MicroPython's binascii has only crc32
    _crc_hqx = None  # type: ignore[assignment]


# -- CRC-16/CCITT-FALSE ------------------------------------------------------------------------
def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16_portable(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), table driven.

    Written by hand because MicroPython has no ``binascii.crc_hqx``; the tests prove it equals
    ``crc_hqx``, which the host uses."""
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ b]
    return crc


def crc16(data, crc=0xFFFF):
    if _crc_hqx is not None:
        return _crc_hqx(data, crc)
    return crc16_portable(data, crc)


# -- COBS (Cheshire & Baker), the canonical form: no empty block after a final 254-byte run -------
def cobs_encode(data):
    """COBS-encode ``data``: the result contains no 0x00 byte."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    n = len(data)
    for i in range(n):
        b = data[i]
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF and i + 1 < n:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Inverse of :func:`cobs_encode`; returns None when a code byte runs past the end or is zero."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        out.extend(data[i + 1:end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)
