/**
 * report.json while a run goes on. Rewriting it after every job made a run quadratic (each rewrite
 * serializes every finished result), so rewrites are coalesced: at most one per `intervalMs`, stretched
 * so writing never takes more than a twentieth of the run, and never two at once. A run killed mid-way
 * (SIGKILL) still leaves the last written report.json: valid, `incomplete`, and naming only files that
 * were written before it. Nothing is fsync'd (a cost per job): after a power loss that holds as far as
 * the file system keeps a renamed file's data (ext4 does for a file replaced by a rename).
 */

/** Default minimum time between two rewrites while jobs finish. */
export const MANIFEST_INTERVAL_MS = 1000;
/** A rewrite that took `t` ms waits at least `t × SLOWDOWN` ms before the next one. */
const SLOWDOWN = 20;

export interface ReportWriter {
  /** Something changed: report.json is rewritten within the interval. */
  changed(): void;
  /** Stops the timer, waits for a write in flight, then writes once more now. */
  flush(): Promise<void>;
  /** The process exits (a second Ctrl-C, a crash): what changed since the last write is written now. */
  exiting(writeSync: () => void): void;
}

export function createReportWriter(
  write: () => Promise<void>,
  intervalMs = MANIFEST_INTERVAL_MS,
): ReportWriter {
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let dirty = false;
  let lastEnd = 0;
  let lastCost = 0;

  const writeNow = async (): Promise<void> => {
    dirty = false;
    const started = Date.now();
    inFlight = write();
    await inFlight;
    inFlight = undefined;
    lastEnd = Date.now();
    lastCost = lastEnd - started;
  };
  const schedule = (): void => {
    if (timer || inFlight || !dirty) return;
    const wait = Math.max(0, lastEnd + Math.max(intervalMs, lastCost * SLOWDOWN) - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      void writeNow().then(schedule);
    }, wait);
  };
  return {
    changed() {
      dirty = true;
      schedule();
    },
    async flush() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await inFlight;
      await writeNow();
    },
    exiting(writeSync) {
      // A write in flight dies with the process: its successor is written instead.
      if (dirty || inFlight) writeSync();
    },
  };
}
