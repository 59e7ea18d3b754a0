"""Decoded ids: the Parts tuple."""

from __future__ import annotations

import datetime as _dt
from typing import NamedTuple, Optional

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
