'use strict';
// The one table of libidgen.so's C calls (SIGNATURES, copied from
// include/idgen.h), its structs and status codes, and the library itself:
// $IDGEN_LIBRARY, else the libidgen.so packaged for this platform under
// prebuilds/<platform>-<arch>/. Loaded on first use, so that requiring
// idgen starts no Go runtime.

const path = require('node:path');
const koffi = require('koffi');

// IDGEN_* status codes and the names IdgenError.code gives them.
const STATUS = { OK: 0, INVALID: -1, CLOCK: -2, OVERFLOW: -3, CLOSED: -4, WORKER: -5, RANGE: -6, FORKED: -7, INTERNAL: -99 };
// IDGEN_TEXT_MAX: a capacity that holds every text id and its NUL.
const TEXT_MAX = 57;
// IDGEN_LEASE_* (idgen_stats.lease_state) and IDGEN_KIND_* (idgen_info.kind).
const LEASE_STATES = ['NONE', 'HELD', 'RIDING', 'LOST'];
const KINDS = [undefined, 'NUMERIC', 'UUIDV7', 'ULID', 'ROCKETMQ', 'COUNTER', 'NUMBER'];

const i64 = 'int64_t';
koffi.opaque('idgen_t');
const Parts = koffi.struct('idgen_parts', {
  id: i64, unix_ms: i64, time: i64, epoch: i64, datacenter: i64, worker: i64, sequence: i64,
});
const TextParts = koffi.struct('idgen_text_parts', {
  id: i64, unix_ms: i64, sequence: i64, pid: i64, loader_hash: i64,
  addr_len: 'int32_t', addr: koffi.array('uint8_t', 16),
});
const Stats = koffi.struct('idgen_stats', {
  issued: i64, tick_waits: i64, clock_backs: i64, drift_ms: i64, lease_state: i64,
  datacenter: i64, worker: i64, fence_unix_ms: i64, renewed_unix_ms: i64, renewals: i64,
  renewal_failures: i64, leases_taken: i64, skew_ms: i64, segment_left: i64,
});
const Info = koffi.struct('idgen_info', {
  kind: i64, leased: i64, tick_ns: i64, text_len: i64, longest_run: i64,
});

// Buffers (Buffer, BigInt64Array) are passed as void * and written in place.
const SIGNATURES = [
  'const char *idgen_version(void)',
  'const char *idgen_strerror(int status)',
  'const char *idgen_last_error(void)',
  'int idgen_open(const char *config, _Out_ idgen_t **out)',
  'void idgen_close(idgen_t *g)',
  'int64_t idgen_next(idgen_t *g)',
  'int idgen_next_batch(idgen_t *g, void *out, size_t n)',
  'int idgen_decode_with(idgen_t *g, int64_t id, _Out_ idgen_parts *out)',
  'int idgen_compose(idgen_t *g, const idgen_parts *in, _Out_ int64_t *out)',
  'int idgen_config_string(idgen_t *g, void *buf, size_t cap)',
  'int idgen_get_stats(idgen_t *g, _Out_ idgen_stats *out, size_t size)',
  'int idgen_get_info(idgen_t *g, _Out_ idgen_info *out, size_t size)',
  'int64_t idgen_metrics_text(void *buf, size_t cap)',
  'int idgen_next_text(idgen_t *g, void *buf, size_t cap)',
  'int idgen_decode_text(idgen_t *g, const char *text, _Out_ idgen_text_parts *out)',
];

const SIZES = { stats: koffi.sizeof(Stats), info: koffi.sizeof(Info) };

let loaded = null;

/** $IDGEN_LIBRARY, else the libidgen.so packaged for this platform. */
function libraryPath() {
  return process.env.IDGEN_LIBRARY ||
    path.join(__dirname, '..', 'prebuilds', `${process.platform}-${process.arch}`, 'libidgen.so');
}

/** The library's functions by C name, loaded on first use. */
function lib() {
  if (loaded) return loaded;
  const file = libraryPath();
  let so;
  try {
    so = koffi.load(file);
  } catch (e) {
    throw new Error(`idgen: cannot load ${file}: ${e.message} (set IDGEN_LIBRARY to the path of libidgen.so)`, { cause: e });
  }
  const fns = {};
  for (const sig of SIGNATURES) {
    const fn = so.func(sig);
    fns[sig.match(/(idgen_\w+)\(/)[1]] = fn;
  }
  loaded = fns;
  return fns;
}

module.exports = { koffi, lib, libraryPath, STATUS, TEXT_MAX, LEASE_STATES, KINDS, SIZES };
