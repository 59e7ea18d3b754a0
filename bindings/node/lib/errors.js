'use strict';
// IdgenError: an IDGEN_E* status with the library's own message, and the
// argument checks done before a call (wrong JS types are TypeErrors).

const { lib, STATUS } = require('./ffi');

const NAMES = new Map(Object.entries(STATUS).map(([name, status]) => [status, name]));

class IdgenError extends Error {
  /**
   * @param {string} message
   * @param {number} status an IDGEN_E* value; unknown ones are INTERNAL
   */
  constructor(message, status, options) {
    super(message, options);
    this.name = 'IdgenError';
    /** 'INVALID', 'CLOCK', 'OVERFLOW', 'CLOSED', 'WORKER', 'RANGE', 'FORKED' or 'INTERNAL' */
    this.code = NAMES.get(status) && status !== 0 ? NAMES.get(status) : 'INTERNAL';
    /** the C status, IDGEN_E* */
    this.status = status;
  }
}

// The library names its C functions where a text preset refuses a numeric
// call; this binding names its own methods instead.
const OWN_NAMES = [[/\bidgen_next_text\b/g, 'nextText()'], [/\bidgen_decode_text\b/g, 'decodeText()']];

/** The IdgenError for status, with this thread's last error. */
function error(status) {
  const f = lib();
  let message = f.idgen_last_error() || f.idgen_strerror(status);
  for (const [c, own] of OWN_NAMES) message = message.replace(c, own);
  return new IdgenError(message, status);
}

/** Throws for a status other than IDGEN_OK. */
function check(status) {
  if (status !== 0) throw error(status);
}

/** An IdgenError of status whose message is the library's text for it
 * (idgen_strerror) and what was wrong. */
function errorOf(status, what) {
  return new IdgenError(`${lib().idgen_strerror(status)}: ${what}`, status);
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** v as a C int64_t argument: a bigint, or a safe integer number. */
function int64(v, what) {
  if (typeof v === 'bigint') {
    if (v < INT64_MIN || v > INT64_MAX) throw errorOf(STATUS.RANGE, `${what} ${v} does not fit in 64 bits`);
    return v;
  }
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  throw new TypeError(`${what} must be a bigint or a safe integer, not ${describe(v)}`);
}

/** s as a C string argument (a NUL would silently cut it short). */
function cstring(s, what) {
  if (typeof s !== 'string') throw new TypeError(`${what} must be a string, not ${describe(s)}`);
  if (s.includes('\0')) throw errorOf(STATUS.INVALID, `${what} contains a NUL character`);
  return s;
}

function describe(v) {
  if (v === null) return 'null';
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'object') return `an object (${v.constructor ? v.constructor.name : 'Object'})`;
  return `a ${typeof v}`;
}

module.exports = { IdgenError, error, check, errorOf, int64, cstring, describe };
