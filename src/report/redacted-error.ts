/**
 * The `{ "error" }` document as every output holds it: `--json`'s stdout, `--reporter json=<file>` and
 * `-o <dir>`, and `axis validate --json`'s issues, and the message on stderr. No secret value of the
 * environment is in them: a CI log keeps stdout and stderr as long as a report file, so all are redacted
 * here, the one way.
 */
import { secretValues } from '../exec/env.js';
import { errorDocument, type ErrorDocument } from '../util/error-document.js';
import { createScrubber } from './scrub.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `text` (an error message about to be printed on stderr) with the secret values of `env` replaced. */
export function redactText(text: string, env: Env): string {
  const secrets = secretValues(env);
  return secrets.length === 0 ? text : createScrubber({ secrets, paths: [] }).text(text);
}

/** `value` (a document about to be printed) with the secret values of `env` replaced by `[REDACTED]`. */
export function redactSecrets<T>(value: T, env: Env): T {
  return createScrubber({ secrets: secretValues(env), paths: [] }).value(value);
}

export function redactedErrorDocument(err: unknown, exitCode: number, env: Env): ErrorDocument {
  return redactSecrets(errorDocument(err, exitCode), env);
}
