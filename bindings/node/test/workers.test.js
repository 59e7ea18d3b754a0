'use strict';
// Concurrency: 8 worker_threads, and 8 node:cluster processes, each with a
// generator of its own on one configuration with worker=lease on one lease
// directory: every one holds a different pair, and no id repeats.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const { spawn } = require('node:child_process');

const PKG = path.join(__dirname, '..');
const WORKERS = 8;
const SINGLES = 300; // next() calls per worker (each one is a call into Go)
const BATCH = 20000; // and one nextBatch

function leaseDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'idgen-node-'));
}

/** The ids of every worker: all distinct, each worker's strictly increasing, pairs distinct. */
function checkAll(results) {
  const seen = new Set();
  const pairs = new Set();
  for (const r of results) {
    const ids = r.ids.map(BigInt);
    assert.equal(ids.length, SINGLES + BATCH);
    for (let k = 1; k < ids.length; k++) assert.ok(ids[k - 1] < ids[k]);
    for (const id of ids) seen.add(id);
    assert.equal(r.leaseState, 'HELD');
    pairs.add(`${r.datacenter}/${r.worker}`);
  }
  assert.equal(pairs.size, results.length, `pairs: ${[...pairs]}`);
  assert.equal(seen.size, results.length * (SINGLES + BATCH), 'duplicate ids');
}

// The body both kinds of worker run: open, wait until all have opened
// (so that all hold their pairs at once), make ids, report them, wait until
// all have reported, close.
const WORK = `
  const idgen = require(${JSON.stringify(PKG)});
  async function work(config, barrier) {
    const g = idgen.open(config);
    await barrier(1);
    const ids = [];
    for (let k = 0; k < ${SINGLES}; k++) ids.push(g.next().toString());
    for (const id of g.nextBatch(${BATCH})) ids.push(id.toString());
    const s = g.stats();
    const p = g.decode(BigInt(ids[0]));
    if (p.worker !== s.worker || p.datacenter !== s.datacenter) throw new Error('the ids are not of the pair held');
    await barrier(2);
    g.close();
    return { ids, leaseState: s.leaseState, datacenter: s.datacenter, worker: s.worker };
  }
`;

test('worker_threads: 8 workers, a generator each on one lease directory, 0 duplicates', async () => {
  const config = `preset=snowflake worker=lease lease_dir=${leaseDir()}`;
  const src = `${WORK}
    const { parentPort, workerData } = require('node:worker_threads');
    const count = new Int32Array(workerData.shared);
    // barrier k: wait until every worker has reached it
    function barrier(k) {
      Atomics.add(count, 0, 1);
      Atomics.notify(count, 0);
      for (let v; (v = Atomics.load(count, 0)) < k * ${WORKERS};) Atomics.wait(count, 0, v, 100);
    }
    work(workerData.config, barrier).then((r) => parentPort.postMessage(r));`;
  const shared = new SharedArrayBuffer(4);
  const results = await Promise.all(Array.from({ length: WORKERS }, () => new Promise((resolve, reject) => {
    const w = new Worker(src, { eval: true, workerData: { config, shared } });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => code && reject(new Error(`worker exited with ${code}`)));
  })));
  checkAll(results);
});

test('node:cluster: 8 workers with worker=lease on one lease directory, 0 duplicates', async () => {
  const config = `preset=snowflake worker=lease lease_dir=${leaseDir()}`;
  const src = `${WORK}
    const cluster = require('node:cluster');
    const config = ${JSON.stringify(config)};
    if (cluster.isPrimary) {
      // barriers: a worker sends {barrier: k}; when all have, the primary answers each
      const results = [];
      const reached = {};
      const workers = [];
      const onMessage = (m) => {
        if (m.barrier) {
          reached[m.barrier] = (reached[m.barrier] || 0) + 1;
          if (reached[m.barrier] === ${WORKERS}) for (const w of workers) w.send({ go: m.barrier });
        } else {
          results.push(m);
          done();
        }
      };
      for (let k = 0; k < ${WORKERS}; k++) {
        workers.push(cluster.fork().on('message', onMessage).on('exit', (code) => { if (code) process.exitCode = 1; }));
      }
      // the last result and the last exit arrive in either order
      let exited = 0;
      function done() {
        if (exited === ${WORKERS} && results.length === ${WORKERS}) process.stdout.write(JSON.stringify(results));
      }
      cluster.on('exit', () => { exited++; done(); });
    } else {
      const waiting = {};
      process.on('message', (m) => waiting[m.go]());
      const barrier = (k) => new Promise((resolve) => { waiting[k] = resolve; process.send({ barrier: k }); });
      work(config, barrier).then((r) => process.send(r, () => process.exit(0)));
    }`;
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'idgen-node-cluster-')), 'primary.js');
  fs.writeFileSync(script, src); // cluster.fork() runs the primary's script again
  const out = await new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    p.stdout.on('data', (d) => { buf += d; });
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(buf) : reject(new Error(`cluster primary exited with ${code}`))));
  });
  const results = JSON.parse(out);
  assert.equal(results.length, WORKERS);
  checkAll(results);
});
