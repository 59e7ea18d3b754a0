'use strict';
// Text ids: nextText and decodeText on the text presets and on numeric
// presets' text= forms, and garbage text as IdgenError INVALID.

const test = require('node:test');
const assert = require('node:assert/strict');
const idgen = require('..');
const { IdgenError } = idgen;

const ROCKETMQ = 'preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=305419896 tz=UTC';
const ROCKETMQ_V1 = 'preset=rocketmq-v1 mac=02:fc:00:00:00:01 pid=70000';

function invalid(fn) {
  assert.throws(fn, (e) => e instanceof IdgenError && e.code === 'INVALID' && e.status === -1 && e.message.length > 0);
}

test('rocketmq ids carry ip, pid and loader hash, and decode back', () => {
  const g = idgen.open(ROCKETMQ);
  const before = Date.now();
  const texts = Array.from({ length: 200 }, () => g.nextText());
  const after = Date.now();
  assert.equal(new Set(texts).size, texts.length);
  for (const t of texts) {
    assert.match(t, /^0A010203123412345678[0-9A-F]{12}$/);
    const p = g.decodeText(t);
    assert.equal(p.ip, '10.1.2.3');
    assert.equal(p.pid, 4660);
    assert.equal(p.loaderHash, 305419896);
    assert.equal(p.id, -1n);
    assert.equal(p.mac, null);
    assert.ok(p.unixMs >= before - 1000 && p.unixMs <= after + 1000);
    assert.equal(p.time, new Date(p.unixMs).toISOString());
    assert.equal(p.sequence, parseInt(t.slice(28, 32), 16));
    assert.deepEqual(g.decodeText(t.toLowerCase()), p);
  }
  assert.deepEqual(g.info(), { kind: 'ROCKETMQ', leased: false, tickNs: g.info().tickNs, textLen: 32, longestRun: 1 });
  g.close();
});

test('rocketmq on an IPv6 host: 56 characters, the address in its canonical form', () => {
  const g = idgen.open('preset=rocketmq ip=fd00::2 pid=7 loader_hash=1');
  const t = g.nextText();
  assert.match(t, /^FD000000000000000000000000000002000700000001[0-9A-F]{12}$/);
  const p = g.decodeText(t);
  assert.equal(p.ip, 'fd00::2');
  assert.deepEqual([p.pid, p.loaderHash, p.mac, p.id], [7, 1, null, -1n]);
  g.close();
});

test('rocketmq-v1 ids carry the mac and the low pid bits', () => {
  const g = idgen.open(ROCKETMQ_V1);
  const t = g.nextText();
  assert.match(t, /^0102FC000000011170[0-9A-F]{16}$/);
  const p = g.decodeText(t);
  assert.equal(p.mac, '02:fc:00:00:00:01');
  assert.equal(p.pid, 70000 & 0xffff);
  assert.equal(p.ip, null);
  assert.equal(p.unixMs % 1000, 0);
  g.close();
});

test('uuidv7 and ulid: canonical text, strictly increasing, unixMs decoded', () => {
  for (const [cfg, re, kind] of [
    ['preset=uuidv7', /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'UUIDV7'],
    ['preset=ulid', /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/, 'ULID'],
  ]) {
    const g = idgen.open(cfg);
    assert.equal(g.info().kind, kind);
    const texts = Array.from({ length: 100 }, () => g.nextText());
    for (let k = 0; k < texts.length; k++) {
      assert.match(texts[k], re);
      if (k) assert.ok(texts[k - 1] < texts[k]);
    }
    const p = g.decodeText(texts[0]);
    assert.ok(Math.abs(p.unixMs - Date.now()) < 60_000);
    assert.deepEqual([p.id, p.sequence, p.pid, p.ip, p.mac], [-1n, -1, -1, null, null]);
    g.close();
  }
});

test('numeric presets write their text= form, from the same sequence as next()', () => {
  for (const [form, width] of [['base62', 11], ['base36', 13], ['dec', 0]]) {
    const g = idgen.open(`preset=snowflake worker=1 text=${form}`);
    const a = g.next();
    const t = g.nextText();
    if (width) assert.equal(t.length, width);
    else assert.equal(t, String(g.decodeText(t).id));
    const p = g.decodeText(t);
    assert.ok(p.id > a);
    assert.equal(g.decode(p.id).worker, 1);
    assert.equal(p.unixMs, g.decode(p.id).unixMs);
    g.close();
  }
});

test('garbage text is IdgenError INVALID, never a crash', () => {
  const gens = [ROCKETMQ, ROCKETMQ_V1, 'preset=uuidv7', 'preset=ulid', 'preset=snowflake worker=0 text=base62', 'worker=0'];
  const garbage = ['', ' ', 'x', '0x12', '-1', 'é'.repeat(40), 'Z'.repeat(100000), '\uD800', '{018f0000-0000-7000-8000-000000000000}',
    '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', '1\0' + '2', 'ILOU'.repeat(7).slice(0, 26)];
  for (const cfg of gens) {
    const g = idgen.open(cfg);
    for (const s of garbage) invalid(() => g.decodeText(s));
    g.close();
  }
});
