"""The digest a checkpoint keeps of the rows it counts: a CRC-32 (zlib's) of each rows file up to the bytes
written. Workers take the CRC of their own chunk's rows, in parallel; the parent joins them with
crc32_combine, which needs only each chunk's length, so no byte is read twice while the run goes on. A
--resume reads the rows file once to check it (zlib.crc32 over the same bytes gives the same value)."""
from __future__ import annotations

import zlib
from typing import BinaryIO

_POLY = 0xEDB88320   # CRC-32's polynomial, reflected, as zlib uses it


def _times(a: int, b: int) -> int:
    """a * b modulo the polynomial (both reflected: bit 31 is x^0)."""
    product, bit = 0, 1 << 31
    while a:
        if a & bit:
            product ^= b
            a ^= bit
        bit >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1
    return product


_SQUARES = [1 << 30]   # x^(2^k) modulo the polynomial: x, x^2, x^4, ...
for _ in range(31):
    _SQUARES.append(_times(_SQUARES[-1], _SQUARES[-1]))


def _shift(length: int) -> int:
    """x^(8 * length) modulo the polynomial: what appending `length` bytes does to a CRC."""
    power, k = 1 << 31, 3
    while length:
        if length & 1:
            power = _times(_SQUARES[k % 32], power)
        length >>= 1
        k += 1
    return power


def crc32_combine(first: int, second: int, second_length: int) -> int:
    """zlib.crc32(a + b) from zlib.crc32(a), zlib.crc32(b) and len(b) (zlib's crc32_combine, which Python lacks)."""
    return _times(_shift(second_length), first) ^ second


def crc32_of(handle: BinaryIO, length: int) -> int | None:
    """The CRC-32 of the first `length` bytes of `handle`, read from its start; None if it is shorter."""
    handle.seek(0)
    crc, left = 0, length
    while left:
        block = handle.read(min(left, 1 << 20))
        if not block:
            return None
        crc = zlib.crc32(block, crc)
        left -= len(block)
    return crc
