'use strict';
// idgen: unique, time-ordered ids from libidgen.so (see README.md).

const { lib, libraryPath, STATUS } = require('./lib/ffi');
const { IdgenError, errorOf } = require('./lib/errors');
const { Generator, metricsText } = require('./lib/generator');

/** Opens a generator from a configuration string ('' means the defaults). */
function open(config = '') {
  return new Generator(config);
}

/** The library's version, "MAJOR.MINOR.PATCH". */
function version() {
  return lib().idgen_version();
}

/** An id as a JS number, for ids that fit in 53 bits (preset=js53):
 * IdgenError RANGE for one that does not. */
function toNumber(id) {
  if (typeof id !== 'bigint') throw new TypeError(`id must be a bigint, not a ${typeof id}`);
  if (id < 0n || id > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw errorOf(STATUS.RANGE, `${id} is not an id a JS number holds exactly (0..2^53-1; preset=js53 ids are)`);
  }
  return Number(id);
}

module.exports = { open, Generator, IdgenError, metricsText, version, toNumber, libraryPath };
