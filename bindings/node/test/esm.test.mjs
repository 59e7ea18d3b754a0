// The ES module entry point gives the CommonJS module's exports, by name
// and as the default export.

import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import idgen, { open, IdgenError, metricsText, version, toNumber, Generator, libraryPath } from 'idgen';

const cjs = createRequire(import.meta.url)('idgen');

test('import and require give the same functions and classes', () => {
  for (const [name, v] of Object.entries({ open, IdgenError, metricsText, version, toNumber, Generator, libraryPath })) {
    assert.equal(typeof v, 'function', name);
    assert.equal(v, cjs[name], name);
    assert.equal(idgen[name], v, name);
  }
  const g = open('preset=snowflake worker=0');
  assert.equal(g.decode(910499571847892992n).worker, 25);
  assert.ok(g instanceof Generator);
  g.close();
  assert.throws(() => g.next(), (e) => e instanceof IdgenError && e.code === 'CLOSED');
});
