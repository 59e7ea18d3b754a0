// make test-node's pack check: run in an empty project where the tarball of
// `npm pack` was installed, away from the repository (no IDGEN_LIBRARY).
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import idgen, { open, IdgenError } from 'idgen';

const require = createRequire(import.meta.url);
const cjs = require('idgen');
assert.equal(cjs.open, open);
assert.equal(process.env.IDGEN_LIBRARY, undefined);
const lib = idgen.libraryPath();
assert.ok(lib.includes('node_modules/idgen/prebuilds/'), lib);
assert.ok(fs.existsSync(require.resolve('idgen/package.json').replace('package.json', 'index.d.ts')));
const g = open('preset=snowflake worker=0');
const p = g.decode(910499571847892992n);
assert.deepEqual([p.datacenter, p.worker, p.unixMs], [17, 25, 1505914988849]);
const ids = g.nextBatch(1000);
assert.ok(ids[999] > ids[0] && g.next() > ids[999]);
g.close();
assert.throws(() => g.next(), (e) => e instanceof IdgenError && e.code === 'CLOSED' && e.status === -4);
const u = open('preset=uuidv7');
assert.match(u.nextText(), /^[0-9a-f]{8}-[0-9a-f]{4}-7/);
u.close();
console.log(`pack: idgen ${idgen.version()} from ${lib}: ok`);
