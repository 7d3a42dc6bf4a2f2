/**
 * Colour for a stream: FORCE_COLOR (any value but `0`/`false`) forces it on, even over NO_COLOR, as Node
 * itself does; otherwise NO_COLOR (non-empty) or TERM=dumb turn it off, and a TTY turns it on.
 * No dependencies: `axis reports` loads it without the reporters.
 */
export function colorEnabled(
  stream: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR) return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}
