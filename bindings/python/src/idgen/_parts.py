"""Decoded ids: the Parts tuple, and TextParts for text ids."""

from __future__ import annotations

import datetime as _dt
import ipaddress
from typing import NamedTuple, Optional, Union

from . import _ffi

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


class Parts(NamedTuple):
    """The fields of an id; a field the layout lacks is -1."""

    id: int
    unix_ms: int
    time: int
    epoch: int
    datacenter: int
    worker: int
    sequence: int

    @property
    def datetime(self) -> Optional[_dt.datetime]:
        """The generation time in UTC, or None if the layout has no time."""
        if self.unix_ms < 0:
            return None
        return _EPOCH + _dt.timedelta(milliseconds=self.unix_ms)


def _parts(p: _ffi.Parts) -> Parts:
    return Parts(p.id, p.unix_ms, p.time, p.epoch, p.datacenter, p.worker, p.sequence)


IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]


class TextParts(NamedTuple):
    """The fields of a text id (Generator.decode_text); a field the form
    lacks is None.

    ``id`` is the number a numeric preset's text stands for (None for the
    text presets); ``unix_ms`` when it was made, in ms since 1970 UTC (to
    the second for rocketmq-v1); ``sequence`` the counter; ``pid`` the
    process id bits the form keeps; ``loader_hash`` rocketmq's class-loader
    hash (0..2**32-1); ``ip`` rocketmq's host address; ``mac`` rocketmq-v1's
    hardware address as ``"02:fc:00:00:00:01"``.
    """

    id: Optional[int]
    unix_ms: Optional[int]
    sequence: Optional[int]
    pid: Optional[int]
    loader_hash: Optional[int]
    ip: Optional[IPAddress]
    mac: Optional[str]

    @property
    def datetime(self) -> Optional[_dt.datetime]:
        """The generation time in UTC, or None if the form has no time."""
        if self.unix_ms is None:
            return None
        return _EPOCH + _dt.timedelta(milliseconds=self.unix_ms)


def _opt(v: int) -> Optional[int]:
    """A C field that is -1 when absent, as None then."""
    return None if v == -1 else v


def _text_parts(p: _ffi.TextParts) -> TextParts:
    ip: Optional[IPAddress] = None
    mac: Optional[str] = None
    n = p.addr_len
    if n == 4:
        ip = ipaddress.IPv4Address(bytes(p.addr)[:4])
    elif n == 16:
        ip = ipaddress.IPv6Address(bytes(p.addr))
    elif n == 6:
        mac = bytes(p.addr)[:6].hex(":")
    return TextParts(_opt(p.id), _opt(p.unix_ms), _opt(p.sequence), _opt(p.pid), _opt(p.loader_hash), ip, mac)
