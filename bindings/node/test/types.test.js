'use strict';
// index.d.ts: a CommonJS and an ES module TypeScript program using every
// part of the API compile under tsc --strict (node16 resolution, the
// package by its own name); one line must fail to (@ts-expect-error: ids
// are bigints, not numbers).

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

test('index.d.ts type-checks CommonJS and ES module programs', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, 'types')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
