// The ES module entry point: the CommonJS module's exports, by name.
import idgen from './index.js';

export const { open, Generator, IdgenError, metricsText, version, toNumber, libraryPath } = idgen;
export default idgen;
