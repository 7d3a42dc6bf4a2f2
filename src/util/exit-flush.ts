/**
 * Writers that hold output back for a moment (the judge cache's answers, the terminal's plain lines)
 * register here while they hold some; when the process exits, whatever ends it, each is flushed. One
 * `exit` listener for the process, added at the first registration.
 */

export interface Flushable {
  /** Writes what is held, synchronously (an `exit` listener cannot wait). */
  flush(): void;
}

const holding = new Set<Flushable>();
let hooked = false;

/** `writer` holds output: flush it at exit unless {@link flushedNow} says it has none left. */
export function flushAtExit(writer: Flushable): void {
  holding.add(writer);
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const w of holding) w.flush();
  });
}

/** `writer` holds nothing any more. */
export function flushedNow(writer: Flushable): void {
  holding.delete(writer);
}
