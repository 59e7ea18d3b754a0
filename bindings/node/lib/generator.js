'use strict';
// Generator: a handle on one generator of the library. Every answer comes
// from the library: the binding reads no configuration and does no layout
// arithmetic; it turns C values into JS ones (ids as bigint).

const { lib, STATUS, TEXT_MAX, LEASE_STATES, KINDS, SIZES } = require('./ffi');
const { error, check, errorOf, int64, cstring, describe } = require('./errors');

// The handles of open generators, closed at process (or worker) exit so
// that their leases are released; a generator dropped unclosed is closed
// by the FinalizationRegistry. Keyed by a token, not by the generator, so
// that this map does not keep generators alive.
const open = new Map();
let nextToken = 1;
const finalizer = new FinalizationRegistry((token) => closeToken(token));
let exitHooked = false;

function closeToken(token) {
  const h = open.get(token);
  if (h === undefined) return;
  open.delete(token);
  lib().idgen_close(h);
}

function closeAll() {
  for (const token of [...open.keys()]) closeToken(token);
}

// One text buffer per thread (module instance): calls are synchronous.
const textBuf = Buffer.alloc(TEXT_MAX);

const INT64_MIN = -(1n << 63n);

/** An int64 field as a number (a bigint only beyond 2^53). */
function num(v) {
  return typeof v === 'bigint' && v >= Number.MIN_SAFE_INTEGER && v <= Number.MAX_SAFE_INTEGER ? Number(v) : v;
}

function rfc3339(unixMs) {
  if (typeof unixMs !== 'number' || unixMs < 0) return null;
  const d = new Date(unixMs);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function ip(addr, n) {
  if (n === 4) return Array.from(addr.subarray(0, 4)).join('.');
  if (n !== 16) return null;
  const groups = [];
  for (let k = 0; k < 16; k += 2) groups.push(((addr[k] << 8) | addr[k + 1]).toString(16));
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1); // the canonical, compressed form
}

function mac(addr, n) {
  if (n !== 6) return null;
  return Array.from(addr.subarray(0, 6), (b) => b.toString(16).padStart(2, '0')).join(':');
}

class Generator {
  #h;
  #token;
  #next;

  /** Use idgen.open(config). */
  constructor(config = '') {
    const f = lib();
    const out = [null];
    check(f.idgen_open(cstring(config, 'config'), out));
    this.#h = out[0];
    this.#token = nextToken++;
    this.#next = f.idgen_next;
    open.set(this.#token, this.#h);
    finalizer.register(this, this.#token, this);
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', closeAll);
    }
  }

  /** The next id, a bigint. */
  next() {
    const v = this.#next(this.#h);
    if (v < 0) throw error(Number(v));
    return typeof v === 'bigint' ? v : BigInt(v);
  }

  /** n strictly increasing ids in a new BigInt64Array. */
  nextBatch(n) {
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
      throw new TypeError(`n must be a non-negative integer, not ${describe(n)}`);
    }
    let out;
    try {
      out = new BigInt64Array(n);
    } catch (e) {
      throw errorOf(STATUS.RANGE, e.message);
    }
    return this.nextBatchInto(out);
  }

  /** Fills a BigInt64Array with strictly increasing ids; returns it. */
  nextBatchInto(out) {
    if (!(out instanceof BigInt64Array)) throw new TypeError(`out must be a BigInt64Array, not ${describe(out)}`);
    check(lib().idgen_next_batch(this.#h, out, out.length));
    return out;
  }

  /** The next id as text, in the generator's text form. */
  nextText() {
    const n = lib().idgen_next_text(this.#h, textBuf, TEXT_MAX);
    if (n < 0) throw error(n);
    return textBuf.toString('utf8', 0, n);
  }

  /** The fields of an id of this generator's layout (-1 where absent). */
  decode(id) {
    const p = {};
    check(lib().idgen_decode_with(this.#h, int64(id, 'id'), p));
    const unixMs = num(p.unix_ms);
    return {
      id: BigInt(p.id), unixMs, time: rfc3339(unixMs), rawTime: num(p.time), epoch: num(p.epoch),
      datacenter: num(p.datacenter), worker: num(p.worker), sequence: num(p.sequence),
    };
  }

  /** The fields of a text id of this generator's form. */
  decodeText(text) {
    const p = {};
    check(lib().idgen_decode_text(this.#h, cstring(text, 'text'), p));
    const unixMs = num(p.unix_ms);
    return {
      id: BigInt(p.id), unixMs, time: rfc3339(unixMs), sequence: num(p.sequence), pid: num(p.pid),
      loaderHash: num(p.loader_hash), ip: ip(p.addr, p.addr_len), mac: mac(p.addr, p.addr_len),
    };
  }

  /** Builds an id from its fields, the inverse of decode: unixMs is used
   * unless it is negative (or absent), then rawTime. */
  compose(parts) {
    if (parts === null || typeof parts !== 'object') throw new TypeError(`parts must be an object, not ${describe(parts)}`);
    if (typeof parts.time === 'number' || typeof parts.time === 'bigint') {
      throw new TypeError('time is the RFC 3339 text decode() gives; pass the raw time field as rawTime');
    }
    const field = (name, dflt) => (parts[name] === undefined ? dflt : int64(parts[name], name));
    const c = {
      id: 0, unix_ms: field('unixMs', -1), time: field('rawTime', -1), epoch: field('epoch', 0),
      datacenter: field('datacenter', 0), worker: field('worker', 0), sequence: field('sequence', 0),
    };
    const out = [0];
    check(lib().idgen_compose(this.#h, c, out));
    return BigInt(out[0]);
  }

  /** What this generator has done and where its lease stands. */
  stats() {
    const s = {};
    check(lib().idgen_get_stats(this.#h, s, SIZES.stats));
    return {
      issued: num(s.issued), tickWaits: num(s.tick_waits), clockBacks: num(s.clock_backs), driftMs: num(s.drift_ms),
      leaseState: LEASE_STATES[num(s.lease_state)] || String(s.lease_state),
      datacenter: num(s.datacenter), worker: num(s.worker),
      fenceUnixMs: num(s.fence_unix_ms), renewedUnixMs: num(s.renewed_unix_ms), renewals: num(s.renewals),
      renewalFailures: num(s.renewal_failures), leasesTaken: num(s.leases_taken),
      skewMs: BigInt(s.skew_ms) === INT64_MIN ? null : num(s.skew_ms), segmentLeft: num(s.segment_left),
    };
  }

  /** What this generator is (idgen_get_info). */
  info() {
    const i = {};
    check(lib().idgen_get_info(this.#h, i, SIZES.info));
    return {
      kind: KINDS[num(i.kind)] || String(i.kind), leased: num(i.leased) === 1, tickNs: num(i.tick_ns),
      textLen: num(i.text_len), longestRun: num(i.longest_run),
    };
  }

  /** The effective configuration, worker and datacenter resolved. */
  get config() {
    for (let cap = 512; ; cap *= 4) {
      const buf = Buffer.alloc(cap);
      const rc = lib().idgen_config_string(this.#h, buf, cap);
      if (rc === STATUS.RANGE && cap < 1 << 20) continue;
      check(rc);
      return buf.toString('utf8', 0, buf.indexOf(0));
    }
  }

  /** Closes the generator and releases its lease. Idempotent; afterwards
   * every method throws IdgenError CLOSED. */
  close() {
    finalizer.unregister(this);
    closeToken(this.#token);
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return open.has(this.#token) ? `Generator <${this.config}>` : 'Generator <closed>';
  }
}

if (typeof Symbol.dispose === 'symbol') {
  Generator.prototype[Symbol.dispose] = Generator.prototype.close;
}

/** Every open generator's metrics in the Prometheus text format. */
function metricsText() {
  const f = lib();
  for (;;) {
    const want = Number(f.idgen_metrics_text(null, 0));
    if (want < 0) throw error(want);
    const cap = want + 4096;
    const buf = Buffer.alloc(cap);
    const n = Number(f.idgen_metrics_text(buf, cap));
    if (n < 0) throw error(n);
    if (n < cap) return buf.toString('utf8', 0, n);
  }
}

module.exports = { Generator, metricsText };
