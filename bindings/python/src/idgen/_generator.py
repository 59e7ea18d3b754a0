"""Generator: a handle on one generator of the library (ids as numbers;
text ids come from the TextIds mixin in _text), and the run-serving
_RunGenerator that a generator configured with runs=N becomes: it takes
the library's runs whole (idgen_next_run) and hands their ids out itself,
dropping what the library says is stale."""

from __future__ import annotations

import ctypes
import functools
import os
from array import array
import threading
import weakref
from time import monotonic_ns as _monotonic_ns
from typing import Any, Callable, Optional

from . import _ffi, _text
from ._buffers import id_list, int64_buffer
from ._errors import _check, _check_decode, _check_id, _cstr, _error
from ._parts import Parts, _parts
from ._stats import Stats, _stats


def _info(h: _ffi.Handle) -> _ffi.Info:
    """What the generator of handle h is (idgen_get_info)."""
    out = _ffi.Info()
    _check(_ffi.lib().quick.idgen_get_info(h, ctypes.byref(out), ctypes.sizeof(out)))
    return out


def _close_handle(handle: ctypes.c_void_p) -> None:
    if _ffi.loaded():
        _ffi.lib().quick.idgen_close(handle)


# Every open generator, so that a forked child can drop the runs its parent
# had reserved (the child then gets ForkedError from the library).
_live: "weakref.WeakSet[Generator]" = weakref.WeakSet()


def _drop_runs_in_child() -> None:
    for g in list(_live):
        g._lock = threading.Lock()  # the parent may have held it at fork
        g._drop()


os.register_at_fork(after_in_child=_drop_runs_in_child)


class Generator(_text.TextIds):
    """An id generator opened from a configuration string.

    Thread-safe; ids strictly increase across all threads. Use it as a
    context manager or call :meth:`close`; a finaliser closes a generator
    that is dropped unclosed.

    The text presets (``preset=rocketmq``, ``rocketmq-v1``, ``uuidv7``,
    ``ulid``) make only text: use :meth:`next_text` and :meth:`decode_text`
    (their :meth:`next_id` raises :class:`ConfigError`); ``uuidv7`` also
    gives :class:`uuid.UUID` objects through :meth:`next_uuid`. Any numeric
    preset makes text too, in the form its ``text=`` key names (``dec``,
    ``base36``, ``base62``).

    :meth:`stats` reports what it has done and where its lease stands.
    """

    __slots__ = (
        "_h", "_next", "_fill", "_ids", "_pop", "_fresh", "_run", "_unissued", "_lock",
        "_finalizer", "_text_fn", "_texts", "_decodes", "_uuid", "_uuid_fn", "_uuids", "__weakref__",
    )

    def __init__(self, config: str = "") -> None:
        lib = _ffi.lib()
        raw = _cstr(config, "config")
        handle = ctypes.c_void_p()
        # Opening may wait (a lease's recorded time): release the GIL.
        _check(lib.waiting.idgen_open(raw, ctypes.byref(handle)))
        token = handle.value or 0
        # ctypes passes a Python int below 2**31 as a C int, sign-extended
        # into the pointer-sized register: the cheapest argument it has
        # (~40 ns less than a c_void_p). Tokens are small until about two
        # thousand generators have been opened; larger ones stay c_void_p.
        self._h: _ffi.Handle = token if 0 < token < 1 << 31 else handle
        self._finalizer = weakref.finalize(self, _close_handle, handle)
        # What the generator is, asked of the library once: its tick, its
        # longest run, whether it makes UUIDs (the binding never reads the
        # configuration string).
        info = _info(self._h)
        # A numeric layout's tick longer than 1 ms can mean a long wait for
        # the next one: then a single next releases the GIL; otherwise it
        # keeps it (cheaper). A text form waits for its tick only after
        # 2^16 (rocketmq) or more ids in it. A batch may wait for a tick:
        # it always releases it.
        slow = info.kind == _ffi.KIND_NUMERIC and info.tick_ns > 1_000_000
        self._next = lib.waiting.idgen_next if slow else lib.quick.idgen_next
        self._fill: Callable[[int, int], int] = functools.partial(lib.waiting.idgen_next_batch, self._h)
        # next_text waits for a tick like next does; decode_text never waits.
        self._text_fn = lib.waiting.idgen_next_text if slow else lib.quick.idgen_next_text
        self._texts: list[_text.NextText] = []
        self._uuid_fn = lib.waiting.idgen_next_uuids if slow else lib.quick.idgen_next_uuids
        self._uuids: list[_text.NextUUID] = []
        self._decodes: list[_text.DecodeText] = []
        self._uuid = info.kind == _ffi.KIND_UUIDV7
        # The run taken from the library, smallest id last; _fresh is the
        # monotonic time until which it may be handed out (0: none held).
        self._ids: list[int] = []
        self._pop = self._ids.pop
        self._fresh = 0
        self._run: Optional[_RunBuffer] = None
        self._unissued = 0  # ids of taken runs dropped here
        self._lock = threading.Lock()
        _live.add(self)
        # With runs=N next_id hands out the library's runs (N is the info's
        # longest_run). Chosen by class rather than tested in every
        # next_id: the test would cost ~5-10 ns on the hot path.
        if info.longest_run > 1:
            self._run = _RunBuffer(info.longest_run)
            self.__class__ = _RunGenerator

    def __enter__(self) -> Generator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if not self._finalizer.alive:
            return "<idgen.Generator closed>"
        return f"<idgen.Generator {self.config!r}>"

    def close(self) -> None:
        """Closes the generator and releases its lease. Idempotent."""
        with self._lock:
            self._drop()
            self._finalizer()

    def next_id(self) -> int:
        """The next id.

        With ``runs=N`` in the configuration, ids come from runs the
        library reserves ahead in one step (as they do in every language):
        the binding takes a run whole and hands its ids out itself, each at
        most 1 ms after the run was reserved and never out of order: every
        id is larger than any id this generator handed out before it,
        through any method and thread. Ids of a run not used in time are
        dropped (a gap in the sequence); so are those held at close and in
        a forked child.
        """
        # Loading the function into a local first is ~25 ns cheaper than
        # self._next(...): CPython does not specialise a method call on a
        # slot that holds a plain callable.
        call = self._next
        v: int = call(self._h)
        if v < 0:
            raise _error(v)
        return v

    def _drop(self) -> None:
        """Forgets the run taken (holding _lock); its ids left are never
        handed out, so they are not counted as issued."""
        self._fresh = 0
        self._unissued += len(self._ids)
        self._ids.clear()

    def _batch(self, addr: int, n: int) -> int:
        """Writes n ids at addr, after every id reserved for next_id."""
        with self._lock:
            self._drop()
            return self._fill(addr, n)

    def next_ids(self, n: int) -> list[int]:
        """A list of n strictly increasing ids."""
        return id_list(n, lambda addr: self._batch(addr, n))

    def next_ids_into(self, buf: Any) -> None:
        """Fills a writable buffer of int64 (array('q'), a numpy int64
        array, a memoryview) with strictly increasing ids, in place."""
        view, n = int64_buffer(buf)
        if n:
            _check(self._batch(ctypes.addressof(view), n))

    def decode(self, id: int) -> Parts:
        """The fields of an id of this generator's layout."""
        p = _ffi.Parts()
        _check_decode(_ffi.lib().quick.idgen_decode_with(self._h, _check_id(id), ctypes.byref(p)))
        return _parts(p)

    def compose(
        self,
        *,
        unix_ms: int = -1,
        time: int = -1,
        epoch: int = 0,
        datacenter: int = 0,
        worker: int = 0,
        sequence: int = 0,
    ) -> int:
        """Builds an id from its fields (the inverse of :meth:`decode`).

        ``unix_ms`` is used unless it is negative, then the raw ``time``.
        A field the layout lacks must be -1 or 0; a value that does not fit
        raises :class:`RangeError`.
        """
        p = _ffi.Parts(0, *(_check_id(v, k) for k, v in (
            ("unix_ms", unix_ms), ("time", time), ("epoch", epoch),
            ("datacenter", datacenter), ("worker", worker), ("sequence", sequence))))
        out = ctypes.c_int64()
        _check(_ffi.lib().quick.idgen_compose(self._h, ctypes.byref(p), ctypes.byref(out)))
        return out.value

    def stats(self) -> Stats:
        """What this generator has done and where its lease stands: ids
        issued, tick waits, clock steps back, the pair held, the lease's
        state and fence (see :class:`Stats`). Raises :class:`ClosedError`
        once closed."""
        out = _ffi.Stats()
        # The library answers between two calls to the lease store, which
        # can take a while in an outage: release the GIL meanwhile.
        _check(_ffi.lib().waiting.idgen_get_stats(self._h, ctypes.byref(out), ctypes.sizeof(out)))
        # The library counts every id of the runs this binding took whole.
        out.issued -= self._unissued + len(self._ids)
        return _stats(out)

    @property
    def config(self) -> str:
        """The effective configuration, worker and datacenter resolved."""
        cap = 512
        while True:
            buf = ctypes.create_string_buffer(cap)
            rc = _ffi.lib().quick.idgen_config_string(self._h, buf, cap)
            if rc == _ffi.ERANGE and cap < 1 << 20:
                cap *= 4
                continue
            _check(rc)
            return buf.value.decode("utf-8")


class _RunBuffer:
    """Where idgen_next_run writes a run and its freshness."""

    __slots__ = ("ids", "addr", "fresh", "fresh_addr")

    def __init__(self, longest: int) -> None:
        self.ids = array("q", bytes(8 * longest))
        self.addr, _ = self.ids.buffer_info()
        self.fresh = ctypes.c_int64()
        self.fresh_addr = ctypes.addressof(self.fresh)


class _RunGenerator(Generator):
    """A Generator whose next_id hands out runs (see Generator.next_id);
    Generator.__init__ makes a generator configured with runs=N one."""

    __slots__ = ()

    def next_id(self) -> int:
        """The next id (see Generator.next_id), from the reserved run."""
        if _monotonic_ns() < self._fresh:
            try:
                return self._pop()
            except IndexError:
                pass
        return self._take()

    def _take(self) -> int:
        """next_id when the run is used up or stale: takes the library's
        next run (idgen_next_run), which also says how long it stays
        fresh."""
        with self._lock:
            if _monotonic_ns() < self._fresh:  # another thread took a run meanwhile
                try:
                    return self._pop()
                except IndexError:
                    pass
            self._drop()
            run = self._run
            assert run is not None  # a _RunGenerator has its buffer
            before = _monotonic_ns()
            n: int = _ffi.lib().waiting.idgen_next_run(self._h, run.addr, len(run.ids), run.fresh_addr)
            if n < 0:
                raise _error(n)
            ids = run.ids[:n].tolist()
            ids.reverse()
            v = ids.pop()
            # A new list: a thread still holding the old one's pop finds it
            # empty and comes here.
            self._ids = ids
            self._pop = ids.pop
            self._fresh = before + run.fresh.value
            return v

    def next_text(self) -> str:
        """The next id as text (see Generator.next_text); drops the
        reserved run first, so that the id is larger than the run's."""
        with self._lock:
            self._drop()
            return Generator.next_text(self)

    def stats(self) -> Stats:
        """See Generator.stats. Read under the lock every run is taken
        under, so that the library's count (every id of the runs taken)
        and the binding's (the ids of those runs not handed out) are of
        one moment: read around another thread's take, the difference
        went down, even below zero. Ids handed out meanwhile only add."""
        with self._lock:
            return Generator.stats(self)
