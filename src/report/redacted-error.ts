/**
 * The `{ "error" }` document as every output holds it: `--json`'s stdout, `--reporter json=<file>` and
 * `-o <dir>`, and `axis validate --json`'s issues. No secret value of the environment is in them: a CI
 * log keeps stdout as long as a report file, so all are redacted here, the one way.
 */
import { secretValues } from '../exec/env.js';
import { errorDocument, type ErrorDocument } from '../util/error-document.js';
import { createScrubber } from './scrub.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `value` (a document about to be printed) with the secret values of `env` replaced by `[REDACTED]`. */
export function redactSecrets<T>(value: T, env: Env): T {
  return createScrubber({ secrets: secretValues(env), paths: [] }).value(value);
}

export function redactedErrorDocument(err: unknown, exitCode: number, env: Env): ErrorDocument {
  return redactSecrets(errorDocument(err, exitCode), env);
}
