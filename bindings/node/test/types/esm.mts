// index.d.ts as an ES module TypeScript program sees it (make test-node: tsc).
import idgen, { open, IdgenError, type Parts } from 'idgen';
const g = open();
const id: bigint = g.next();
const p: Parts = g.decode(id);
const tp = g.decodeText('x'); const ip: string | null = tp.ip;
idgen.open('x');
const e = new IdgenError('m', -1); const c: 'INVALID' | string = e.code;
// @ts-expect-error ids are bigints, not numbers
const bad: number = g.next();
