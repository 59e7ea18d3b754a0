'use strict';
// Per-call cost of the Node.js binding (make bench-node):
// g.next() against an empty koffi call into libidgen.so that enters Go
// (idgen_bench_noop, only in the bench build: build/bench/libidgen.so) and
// one that stays in C (idgen_version), on the main thread and on a
// worker_threads thread, and against @sapphire/snowflake (pure JS, the
// generator of discord.js; bench/node/package.json). Medians of ROUNDS rounds of
// CALLS calls; ratios to the Go-entering no-op.
//   IDGEN_BENCH_LIB  the bench build (default build/bench/libidgen.so)
//   ROUNDS (default 7), CALLS (default 2000)

const path = require('node:path');
const { Worker, isMainThread, parentPort } = require('node:worker_threads');

const ROOT = path.join(__dirname, '..', '..');
const LIB = process.env.IDGEN_BENCH_LIB || path.join(ROOT, 'build', 'bench', 'libidgen.so');
process.env.IDGEN_LIBRARY = LIB; // the binding loads the same library
const ROUNDS = Number(process.env.ROUNDS || 7);
const CALLS = Number(process.env.CALLS || 2000);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** ns per call of fn, the median of ROUNDS rounds. */
function measure(fn) {
  for (let k = 0; k < 100; k++) fn(); // warm up
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < CALLS; k++) fn();
    rounds.push(Number(process.hrtime.bigint() - t0) / CALLS);
  }
  return median(rounds);
}

function run() {
  const pkg = path.join(ROOT, 'bindings', 'node');
  const koffi = require(require.resolve('koffi', { paths: [pkg] })); // the binding's own koffi
  const idgen = require(pkg);
  const lib = koffi.load(LIB);
  const noop = lib.func('int idgen_bench_noop(void)');
  const version = lib.func('const char *idgen_version(void)');
  const g = idgen.open('preset=snowflake worker=0');
  const r = idgen.open('layout=time:41,seq:22 worker=0 runs=1024');
  const dir = require('fs').mkdtempSync(require('path').join(require('os').tmpdir(), 'idgen-nodebench-'));
  const seg = idgen.open(`preset=segment name=nodebench step=auto lease_dir=${dir}`);
  const rows = [
    ['koffi call, C only (idgen_version)', measure(() => version())],
    ['koffi call into Go (idgen_bench_noop)', measure(() => noop())],
    ['g.next()', measure(() => g.next())],
    ['g.next(), time:41,seq:22 runs=1024 (runs in C)', measure(() => r.next())],
    ['g.next(), preset=segment (runs in C)', measure(() => seg.next())],
  ];
  g.close();
  r.close();
  seg.close();
  require('fs').rmSync(dir, { recursive: true, force: true });
  try {
    const { Snowflake } = require('@sapphire/snowflake');
    const s = new Snowflake(new Date('2015-01-01T00:00:00.000Z'));
    rows.push(['@sapphire/snowflake generate()', measure(() => s.generate())]);
  } catch {
    rows.push(['@sapphire/snowflake generate()', NaN]); // not installed
  }
  return rows;
}

function print(where, rows) {
  const base = rows[1][1];
  console.log(`== ${where} (median of ${ROUNDS} rounds of ${CALLS} calls)`);
  for (const [name, ns] of rows) {
    const v = Number.isNaN(ns) ? 'not installed (npm install @sapphire/snowflake)' : `${ns.toFixed(0).padStart(9)} ns   ${(ns / base).toFixed(3)}x the Go no-op`;
    console.log(`  ${name.padEnd(40)} ${v}`);
  }
}

if (isMainThread) {
  print('main thread', run());
  const w = new Worker(__filename);
  w.on('message', (rows) => print('worker_threads thread', rows));
} else {
  parentPort.postMessage(run());
}
