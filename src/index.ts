// Public programmatic API of AXIS.
export * from './util/errors.js';
export type * from './transcript/model.js';
export * from './config/index.js';
export * from './plan/index.js';
export * from './sim/index.js';
