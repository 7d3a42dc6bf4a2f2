// Public programmatic API of AXIS.
export * from './util/errors.js';
export type * from './transcript/model.js';
