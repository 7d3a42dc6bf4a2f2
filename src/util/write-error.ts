/** A file AXIS could not write, as one sentence a user can act on (never a stack, never a temp name). */
import { AxisError } from './errors.js';
import { shownPath } from './shown-path.js';

const WHY: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'a directory is in the way',
  ERR_FS_EISDIR: 'a directory is in the way',
  ENOTDIR: 'a file is in the way of a folder on its path',
};

/** Why a write failed, in words (`no space left on the device`); the error's message for the rare rest. */
export function writeErrorReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return (code && WHY[code]) ?? (err instanceof Error ? err.message : String(err));
}

/** `<path>: <why>`, the path relative to the cwd when it is under it. */
export function writeErrorText(path: string, err: unknown): string {
  return `${shownPath(path)}: ${writeErrorReason(err)}`;
}

/** AxisError (exit 1) `Cannot write <path>: <why>.` plus `hint`. */
export function cannotWrite(path: string, err: unknown, hint = ''): AxisError {
  return new AxisError(`Cannot write ${writeErrorText(path, err)}.${hint ? ` ${hint}` : ''}`, { cause: err });
}
