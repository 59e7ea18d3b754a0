'use strict';
// Every method of Generator and the module, the seed vector, and errors:
// each IDGEN_E* status this host can provoke, and bad input (wrong types,
// a closed generator, huge n, out-of-range ids) as IdgenError or TypeError
// with a message, never a crash.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const idgen = require('..');
const { IdgenError } = idgen;

function leaseDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'idgen-node-'));
}

/** assert.throws for an IdgenError of code (and status), its message matching re. */
function throwsIdgen(fn, code, re) {
  const status = { INVALID: -1, CLOCK: -2, OVERFLOW: -3, CLOSED: -4, WORKER: -5, RANGE: -6 }[code];
  assert.throws(fn, (e) => {
    assert.ok(e instanceof IdgenError, `not an IdgenError: ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'IdgenError');
    assert.equal(e.code, code, e.message);
    assert.equal(e.status, status);
    assert.ok(e.message.length > 0);
    if (re) assert.match(e.message, re);
    return true;
  });
}

test('the seed vector: 910499571847892992 is datacenter 17, worker 25, 1505914988849 ms', () => {
  const g = idgen.open('preset=snowflake worker=0');
  const p = g.decode(910499571847892992n);
  assert.deepEqual(p, {
    id: 910499571847892992n, unixMs: 1505914988849, time: '2017-09-20T13:43:08.849Z',
    rawTime: 1505914988849 - 1288834974657, epoch: -1, datacenter: 17, worker: 25, sequence: 0,
  });
  assert.equal(g.compose(p), 910499571847892992n, 'compose(decode(id)) is id');
  assert.equal(g.compose({ unixMs: 1505914988849, datacenter: 17, worker: 25 }), 910499571847892992n);
  assert.equal(g.compose({ rawTime: 1505914988849 - 1288834974657, datacenter: 17, worker: 25 }), 910499571847892992n);
  g.close();
});

test('next, nextBatch, nextBatchInto: bigints, strictly increasing across methods', () => {
  const g = idgen.open('preset=snowflake worker=3');
  const a = g.next();
  assert.equal(typeof a, 'bigint');
  const batch = g.nextBatch(5000);
  assert.ok(batch instanceof BigInt64Array);
  assert.equal(batch.length, 5000);
  const into = new BigInt64Array(100);
  assert.equal(g.nextBatchInto(into), into);
  const b = g.next();
  const all = [a, ...batch, ...into, b];
  for (let k = 1; k < all.length; k++) assert.ok(all[k - 1] < all[k], `ids ${k - 1} and ${k} out of order`);
  assert.equal(g.decode(b).worker, 3);
  assert.equal(g.nextBatch(0).length, 0);
  assert.equal(g.stats().issued, all.length);
  g.close();
});

test('decode takes a bigint or a safe integer; js53 ids read as numbers with toNumber', () => {
  const g = idgen.open('preset=js53 worker=2');
  const id = g.next();
  const n = idgen.toNumber(id);
  assert.equal(typeof n, 'number');
  assert.equal(BigInt(n), id);
  assert.deepEqual(g.decode(n), g.decode(id));
  assert.equal(g.decode(n).worker, 2);
  throwsIdgen(() => idgen.toNumber(910499571847892992n), 'RANGE', /910499571847892992/);
  throwsIdgen(() => idgen.toNumber(-1n), 'RANGE');
  assert.throws(() => idgen.toNumber(5), TypeError);
  g.close();
});

test('stats, info and config come from the library', () => {
  const g = idgen.open('preset=snowflake datacenter=4 worker=7');
  g.next();
  const s = g.stats();
  assert.equal(s.issued, 1);
  assert.equal(s.leaseState, 'NONE');
  assert.equal(s.datacenter, 4);
  assert.equal(s.worker, 7);
  assert.equal(s.fenceUnixMs, -1);
  assert.equal(s.leasesTaken, 0);
  assert.equal(s.segmentLeft, -1);
  for (const v of Object.values(s)) assert.ok(v === null || typeof v === 'number' || typeof v === 'string');
  assert.deepEqual(g.info(), { kind: 'NUMERIC', leased: false, tickNs: 1_000_000, textLen: 0, longestRun: 1 });
  assert.match(g.config, /^preset=snowflake .*datacenter=4 worker=7/);
  const h = idgen.open(g.config); // the effective configuration opens the same layout
  assert.equal(h.decode(h.next()).worker, 7);
  h.close();
  assert.equal(idgen.open('preset=zxid').info().tickNs, 0);
  assert.equal(idgen.open('preset=snowflake worker=0 runs=64').info().longestRun, 64);
  g.close();
});

test('a leased generator: lease state, pair, fence; close releases the pair', () => {
  const dir = leaseDir();
  const cfg = `layout=time:41,worker:1,seq:21 worker=lease lease_dir=${dir}`;
  const g1 = idgen.open(cfg);
  const g2 = idgen.open(cfg);
  const s = g1.stats();
  assert.equal(s.leaseState, 'HELD');
  assert.equal(s.leasesTaken, 1);
  assert.ok(s.fenceUnixMs > Date.now() - 60_000);
  assert.equal(g1.info().leased, true);
  assert.match(g1.config, /leased=/);
  throwsIdgen(() => idgen.open(cfg), 'WORKER', /all 2 pairs/);
  const w1 = g1.decode(g1.next()).worker;
  g1.close();
  const g3 = idgen.open(cfg); // g1's pair is free again
  assert.equal(g3.decode(g3.next()).worker, w1);
  assert.notEqual(g2.decode(g2.next()).worker, w1);
  g2.close();
  g3.close();
});

test('IDGEN_EINVAL: bad configs, bad ids, lease=off, text presets', () => {
  throwsIdgen(() => idgen.open('bogus=1'), 'INVALID', /bogus: unknown key/);
  throwsIdgen(() => idgen.open('worker=99'), 'INVALID', /worker/);
  throwsIdgen(() => idgen.open('worker=lease lease_dir=/nonexistent/x'), 'INVALID', /\/nonexistent\/x/);
  throwsIdgen(() => idgen.open('preset=snowflake\0 worker=3'), 'INVALID', /NUL/);
  const g = idgen.open('worker=0');
  throwsIdgen(() => g.decode(-1n), 'INVALID', /negative/);
  throwsIdgen(() => g.decode(-1), 'INVALID', /negative/);
  throwsIdgen(() => g.compose({ unixMs: 1505914988849, epoch: 3 }), 'INVALID');
  g.close();
  const off = idgen.open('preset=snowflake worker=0 lease=off');
  throwsIdgen(() => off.next(), 'INVALID', /lease=off/);
  assert.equal(off.decode(910499571847892992n).worker, 25, 'lease=off decodes');
  off.close();
  const u = idgen.open('preset=uuidv7');
  throwsIdgen(() => u.next(), 'INVALID', /nextText\(\)/); // the binding's own names
  throwsIdgen(() => u.nextBatch(2), 'INVALID');
  u.close();
});

test('IDGEN_EOVERFLOW: a layout whose time range is used up (baidu)', () => {
  const g = idgen.open('preset=baidu worker=0');
  throwsIdgen(() => g.next(), 'OVERFLOW', /2024-11-20/);
  throwsIdgen(() => g.nextBatch(3), 'OVERFLOW');
  g.close();
});

test('IDGEN_ERANGE: a field that does not fit, an id beyond 64 bits, a huge n', () => {
  const g = idgen.open('worker=0');
  throwsIdgen(() => g.compose({ unixMs: 1505914988849, worker: 32 }), 'RANGE', /worker/);
  throwsIdgen(() => g.decode(1n << 64n), 'RANGE', /64 bits/);
  throwsIdgen(() => g.decode(-(1n << 63n) - 1n), 'RANGE');
  throwsIdgen(() => g.compose({ unixMs: 1n << 70n }), 'RANGE');
  throwsIdgen(() => g.nextBatch(2 ** 40), 'RANGE');
  throwsIdgen(() => g.nextBatch(Number.MAX_SAFE_INTEGER), 'RANGE');
  assert.equal(g.stats().issued, 0, 'nothing consumed');
  g.close();
});

// crc32 (IEEE), for the lease record written below.
function crc32(s) {
  let c = ~0;
  for (const b of Buffer.from(s)) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return (~c >>> 0).toString(16).padStart(8, '0');
}

test('IDGEN_ECLOCK: a lease record ahead of the clock is not passed within max_wait', () => {
  const dir = leaseDir();
  const cfg = `layout=time:41,seq:22 worker=lease lease_dir=${dir}`; // a pool of one pair
  const g = idgen.open(cfg);
  g.next();
  g.close();
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.lease'));
  assert.equal(files.length, 1);
  const body = `idgen-lease 1 ${String(2 ** 41).padStart(20, '0')} 000 `;
  fs.writeFileSync(path.join(dir, files[0]), `${body}${crc32(body)}\n`);
  throwsIdgen(() => idgen.open(`${cfg} max_wait=20ms`), 'CLOCK', /max_wait/);
});

test('IDGEN_ECLOSED: every method of a closed generator; close is idempotent', () => {
  const g = idgen.open('worker=0');
  g.next();
  g.close();
  g.close();
  const calls = [
    () => g.next(), () => g.nextBatch(2), () => g.nextBatch(0), () => g.nextBatchInto(new BigInt64Array(1)),
    () => g.nextText(), () => g.decode(1n), () => g.decodeText('1'), () => g.compose({ unixMs: 1505914988849 }),
    () => g.stats(), () => g.info(), () => g.config,
  ];
  for (const call of calls) throwsIdgen(call, 'CLOSED', /closed/);
  if (typeof Symbol.dispose === 'symbol') g[Symbol.dispose]();
});

test('wrong types are TypeErrors with a message, and consume nothing', () => {
  const g = idgen.open('worker=0');
  const bad = [
    () => idgen.open(42), () => idgen.open(null), () => idgen.open({}),
    () => g.nextBatch('3'), () => g.nextBatch(-1), () => g.nextBatch(1.5), () => g.nextBatch(NaN), () => g.nextBatch(3n),
    () => g.nextBatchInto([0n, 0n]), () => g.nextBatchInto(new BigUint64Array(2)), () => g.nextBatchInto(Buffer.alloc(16)),
    () => g.decode('910499571847892992'), () => g.decode(1.5), () => g.decode(2 ** 60), () => g.decode(undefined),
    () => g.decodeText(12), () => g.decodeText(null),
    () => g.compose(null), () => g.compose(5), () => g.compose({ worker: '3' }), () => g.compose({ unixMs: 1.5 }),
    () => g.compose({ time: 217080014192 }),
  ];
  for (const call of bad) {
    assert.throws(call, (e) => e instanceof TypeError && e.message.length > 0, String(call));
  }
  assert.equal(g.stats().issued, 0);
  g.close();
});

test('IdgenError: names for every status, INTERNAL for unknown ones', () => {
  const want = { [-1]: 'INVALID', [-2]: 'CLOCK', [-3]: 'OVERFLOW', [-4]: 'CLOSED', [-5]: 'WORKER', [-6]: 'RANGE', [-7]: 'FORKED', [-99]: 'INTERNAL', [-42]: 'INTERNAL' };
  for (const [status, code] of Object.entries(want)) {
    const e = new IdgenError('m', Number(status));
    assert.equal(e.code, code);
    assert.equal(e.status, Number(status));
  }
});

test('metricsText lists open generators; version is the header\'s', () => {
  const g = idgen.open('preset=snowflake worker=5 name=node-metrics');
  g.next();
  const text = idgen.metricsText();
  assert.match(text, /^idgen_ids_issued_total\{name="node-metrics",generator="\d+"\} 1$/m);
  g.close();
  assert.doesNotMatch(idgen.metricsText(), /node-metrics/);
  const header = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'include', 'idgen.h'), 'utf8');
  const want = header.match(/#define IDGEN_VERSION_STRING "(.*)"/);
  if (want) assert.equal(idgen.version(), want[1]);
  else assert.match(idgen.version(), /^\d+\.\d+\.\d+$/); // outside the repository (npm pack test)
});

test('a generator dropped unclosed is closed at exit: its lease is released', () => {
  const { execFileSync } = require('node:child_process');
  const dir = leaseDir();
  const cfg = `layout=time:41,seq:22 worker=lease lease_dir=${dir}`; // a pool of one pair
  const script = `const g = require(${JSON.stringify(path.join(__dirname, '..'))}).open(${JSON.stringify(cfg)}); g.next();`;
  execFileSync(process.execPath, ['-e', script]);
  // Held by the exited process, the only pair would be refused (WORKER).
  const g = idgen.open(`${cfg} max_wait=500ms`);
  assert.equal(g.stats().leaseState, 'HELD');
  g.close();
});

test('require loads no library; IDGEN_LIBRARY names it, and a missing one is an Error saying so', () => {
  const { spawnSync } = require('node:child_process');
  const pkg = JSON.stringify(path.join(__dirname, '..'));
  const lazy = spawnSync(process.execPath, ['-e', `
    const idgen = require(${pkg});
    const maps = () => require('node:fs').readFileSync('/proc/self/maps', 'utf8');
    if (maps().includes('libidgen')) process.exit(3);
    idgen.open('worker=0').next();
    if (!maps().includes(idgen.libraryPath())) process.exit(4);`], { encoding: 'utf8', env: { ...process.env, IDGEN_LIBRARY: '' } });
  assert.equal(lazy.status, 0, lazy.stderr);
  const missing = spawnSync(process.execPath, ['-e', `
    const idgen = require(${pkg});
    if (idgen.libraryPath() !== '/nonexistent/libidgen.so') process.exit(3);
    try { idgen.open('worker=0'); } catch (e) { console.log(e.constructor.name, e.message); }`],
  { encoding: 'utf8', env: { ...process.env, IDGEN_LIBRARY: '/nonexistent/libidgen.so' } });
  assert.equal(missing.status, 0, missing.stderr);
  assert.match(missing.stdout, /^Error idgen: cannot load \/nonexistent\/libidgen.so: .*IDGEN_LIBRARY/);
});
