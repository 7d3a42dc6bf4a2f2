/**
 * ` -c <path>` for the commands AXIS prints for the user to run next (View it, View scenario detail, …),
 * when the command was given `-c`: copied into the same shell, they must reach the same project.
 */

/** Characters a POSIX shell reads as a plain word. */
const PLAIN = /^[A-Za-z0-9_./:@%+=,-]+$/;

/** The path as one shell word: quoted when it holds anything else (a space, `$`, a quote). */
export function shellWord(s: string): string {
  return PLAIN.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** ` -c <path>` for `-c <path>`, nothing without it. */
export function configFlag(config: string | undefined): string {
  return config ? ` -c ${shellWord(config)}` : '';
}
