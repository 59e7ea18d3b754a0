'use strict';
// Message ids made by Apache RocketMQ's Node.js client (npm
// rocketmq-client-nodejs, a devDependency: test scope only) with its own
// MessageIdFactory, read by idgen's rocketmq-v1 preset field for field:
// MAC, pid, time and sequence, against the client's own decode.
//
// The client's layout (src/message/MessageId.ts, 1.0.8): 01 + 6 bytes MAC
// + 2 bytes pid + 4 bytes of seconds since 2021-01-01 UTC + a 4-byte
// counter from 0. Its pid is `process.pid % 0xFFFF` (not the low 16 bits:
// a pid of 65535 or more reads differently from the Java codec's), and its
// MAC is all zeros until `address.mac` has answered.

const test = require('node:test');
const assert = require('node:assert/strict');
const address = require('address');
const { MessageIdFactory } = require('rocketmq-client-nodejs');
const idgen = require('..');

const V1_EPOCH_MS = Date.UTC(2021, 0, 1);

function macText(hex) {
  return hex.toLowerCase().match(/../g).join(':');
}

// The client sets its MAC when address.mac answers; ask the same module
// and wait for that answer, then one turn more for the client's callback.
async function clientMac() {
  const mac = await new Promise((resolve) => address.mac((err, m) => resolve(err ? null : m)));
  await new Promise((resolve) => setImmediate(resolve));
  return mac;
}

test('idgen decodes the Node.js client\'s ids field for field', async () => {
  const mac = await clientMac();
  assert.ok(mac, 'address.mac found this host\'s MAC');
  assert.equal(MessageIdFactory.MAC, mac.replaceAll(':', ''), 'the client took the MAC address.mac reports');
  const g = idgen.open('preset=rocketmq-v1');
  try {
    let last = -1;
    for (let i = 0; i < 500; i++) {
      const before = Date.now();
      const made = MessageIdFactory.create();
      const after = Date.now();
      const theirs = made.toString();
      assert.match(theirs, /^01[0-9A-F]{32}$/);
      const back = MessageIdFactory.decode(theirs);
      const p = g.decodeText(theirs);
      assert.equal(p.mac, macText(back.macAddress), theirs);
      assert.equal(p.mac, mac.toLowerCase(), theirs);
      assert.equal(p.pid, back.processId, theirs);
      assert.equal(p.pid, process.pid % 0xffff, 'the client\'s pid rule');
      assert.equal(p.sequence, back.sequence, theirs);
      assert.equal(p.unixMs, V1_EPOCH_MS + back.timestamp * 1000, theirs);
      assert.ok(p.unixMs >= before - 1000 && p.unixMs <= after,
        `${theirs} decoded to ${p.unixMs}, made in [${before}, ${after}]`);
      if (last >= 0) assert.equal(p.sequence, last + 1, 'the counter goes up by one');
      last = p.sequence;
      assert.equal(p.id, -1n);
      assert.equal(p.loaderHash, -1);
      assert.equal(p.ip, null);
    }
  } finally {
    g.close();
  }
});

test('the client decodes idgen\'s rocketmq-v1 ids field for field', async () => {
  await clientMac();
  const g = idgen.open('preset=rocketmq-v1');
  try {
    const theirs = MessageIdFactory.create().toString();
    for (let i = 0; i < 100; i++) {
      const ours = g.nextText();
      const p = g.decodeText(ours);
      const back = MessageIdFactory.decode(ours);
      assert.equal(back.version, 1, ours);
      assert.equal(macText(back.macAddress), p.mac, ours);
      assert.equal(back.processId, p.pid, ours);
      assert.equal(V1_EPOCH_MS + back.timestamp * 1000, p.unixMs, ours);
      assert.equal(back.sequence, p.sequence, ours);
    }
    // mac=auto picks the interface the client's MAC came from; the pid
    // bytes agree while this process's pid is below 65535.
    const ours = g.nextText();
    assert.equal(ours.slice(2, 14), theirs.slice(2, 14), `MAC: ours ${ours}, the client's ${theirs}`);
    if (process.pid < 0xffff) assert.equal(ours.slice(0, 18), theirs.slice(0, 18), `${ours} vs ${theirs}`);
  } finally {
    g.close();
  }
});
