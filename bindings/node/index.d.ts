// Type declarations of the idgen package (CommonJS and ESM).

/** The fields of an id (Generator.decode); a field the layout lacks is -1. */
export interface Parts {
  /** the id itself */
  id: bigint;
  /** generation time in ms since 1970 UTC; -1 if the layout has no time */
  unixMs: number;
  /** unixMs as RFC 3339 text (UTC, ms); null if the layout has no time */
  time: string | null;
  /** the raw time field (units since the layout's epoch); -1 if none */
  rawTime: number;
  /** zxid epoch, or the backwards (clock-rollback) counter; -1 if none */
  epoch: number;
  datacenter: number;
  worker: number;
  sequence: number;
}

/** What Generator.compose reads: unixMs is used unless it is negative or
 * absent, then rawTime; absent fields are 0. `id` and `time` (decode's)
 * are ignored, so compose(decode(id)) gives id back. */
export interface ComposeParts {
  unixMs?: number | bigint;
  rawTime?: number | bigint;
  epoch?: number | bigint;
  datacenter?: number | bigint;
  worker?: number | bigint;
  sequence?: number | bigint;
  id?: bigint;
  time?: string | null;
}

/** The fields of a text id (Generator.decodeText); -1 (or null) where the form lacks one. */
export interface TextParts {
  /** a numeric preset's id; -1n for the text-only forms */
  id: bigint;
  unixMs: number;
  time: string | null;
  sequence: number;
  /** the process id bits the form keeps */
  pid: number;
  /** rocketmq's class-loader hash field */
  loaderHash: number;
  /** rocketmq's host address, e.g. '10.1.2.3' or 'fd00::2' */
  ip: string | null;
  /** rocketmq-v1's hardware address, e.g. '02:fc:00:00:00:01' */
  mac: string | null;
}

export type LeaseState = 'NONE' | 'HELD' | 'RIDING' | 'LOST';

/** What a generator has done and where its lease stands (idgen_stats). */
export interface Stats {
  issued: number;
  tickWaits: number;
  clockBacks: number;
  driftMs: number;
  leaseState: LeaseState;
  /** the pair held now; -1 if none */
  datacenter: number;
  worker: number;
  /** the highest time it may issue, ms since 1970; -1 without a lease */
  fenceUnixMs: number;
  renewedUnixMs: number;
  renewals: number;
  renewalFailures: number;
  leasesTaken: number;
  /** this host's clock minus the store's; null if unknown */
  skewMs: number | null;
  /** segment: values left in hand; -1 otherwise */
  segmentLeft: number;
}

/** What a generator is (idgen_info). */
export interface Info {
  kind: 'NUMERIC' | 'UUIDV7' | 'ULID' | 'ROCKETMQ' | 'COUNTER' | 'NUMBER';
  /** it holds a lease or takes segments from a store */
  leased: boolean;
  /** the unit of its time field in ns; 0 without one */
  tickNs: number;
  /** the length of its text form; 0 when it varies */
  textLen: number;
  /** N of runs=N; 1 without runs */
  longestRun: number;
}

export type ErrorCode = 'INVALID' | 'CLOCK' | 'OVERFLOW' | 'CLOSED' | 'WORKER' | 'RANGE' | 'FORKED' | 'INTERNAL';

/** A failure of the library, with its message (idgen_last_error). */
export class IdgenError extends Error {
  constructor(message: string, status: number, options?: ErrorOptions);
  readonly name: 'IdgenError';
  /** the IDGEN_E* status by name */
  readonly code: ErrorCode;
  /** the C status: -1 INVALID, -2 CLOCK, -3 OVERFLOW, -4 CLOSED, -5 WORKER, -6 RANGE, -7 FORKED, -99 INTERNAL */
  readonly status: number;
}

/** A generator opened from a configuration string; synchronous, ids strictly increase. */
export class Generator {
  private constructor();
  /** The next id. */
  next(): bigint;
  /** n strictly increasing ids. */
  nextBatch(n: number): BigInt64Array;
  /** Fills out with strictly increasing ids and returns it. */
  nextBatchInto(out: BigInt64Array): BigInt64Array;
  /** The next id as text (the text presets, or a numeric preset's text= form). */
  nextText(): string;
  decode(id: bigint | number): Parts;
  decodeText(text: string): TextParts;
  compose(parts: ComposeParts): bigint;
  stats(): Stats;
  info(): Info;
  /** The effective configuration, worker and datacenter resolved. */
  readonly config: string;
  /** Closes it and releases its lease; idempotent (also as [Symbol.dispose] where the runtime has it). */
  close(): void;
}

/** Opens a generator ('' or no argument: the defaults, a host lease). */
export function open(config?: string): Generator;
/** Every open generator's metrics, Prometheus text format 0.0.4. */
export function metricsText(): string;
/** The library's version. */
export function version(): string;
/** An id as a number, for ids below 2^53 (preset=js53); IdgenError RANGE otherwise. */
export function toNumber(id: bigint): number;
/** Where the library is loaded from: $IDGEN_LIBRARY, else the packaged one. */
export function libraryPath(): string;
