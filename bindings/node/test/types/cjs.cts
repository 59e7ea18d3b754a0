// index.d.ts as a CommonJS TypeScript program sees it (make test-node: tsc).
import idgen = require('idgen');
const g: idgen.Generator = idgen.open('worker=0');
const id: bigint = g.next();
const b: BigInt64Array = g.nextBatch(3);
const p: idgen.Parts = g.decode(id);
const t: string | null = p.time;
const n: number = idgen.toNumber(id);
try { g.close(); } catch (e) { if (e instanceof idgen.IdgenError) { const c: idgen.ErrorCode = e.code; const s: number = e.status; } }
const s: idgen.Stats = g.stats(); const l: idgen.LeaseState = s.leaseState;
const c2: bigint = g.compose({ unixMs: 1, worker: 2n });
const x: string = g.config;
