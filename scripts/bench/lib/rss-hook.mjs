// Preloaded (--import) into a measured child: on exit it writes its peak RSS, CPU time and minor page
// faults (its own, not its children's) as JSON to $AXIS_BENCH_RSS_FILE, and the CPU time of its live
// child processes (AXIS's spawner process, src/exec/spawner.ts, which forks the jobs on AXIS's
// behalf), read from /proc.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const file = process.env.AXIS_BENCH_RSS_FILE;
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** User + system CPU of the live direct children of this process, in ms, and how many there were. */
function liveChildrenCpu() {
  let ms = 0;
  let count = 0;
  let names = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return { ms, count };
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) !== process.pid) continue; // ppid
      ms += (Number(f[11]) + Number(f[12])) * TICK_MS; // utime, stime
      count++;
    } catch {
      // gone meanwhile
    }
  }
  return { ms, count };
}

/**
 * User + system CPU of this process's main thread alone, in ms (its task id is the pid); the rest of the
 * process's CPU is V8's helper threads (concurrent GC, the optimizing compiler) and libuv's pool.
 */
function mainThreadCpu() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return NaN;
  }
}

if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    const children = liveChildrenCpu();
    const mainMs = mainThreadCpu();
    try {
      writeFileSync(
        file,
        JSON.stringify({
          rssBytes: u.maxRSS * 1024,
          cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000,
          // Pages faulted in (first touches of memory): what fresh memory cost is counted in.
          minorFaults: u.minorPageFault,
          mainThreadCpuMs: mainMs,
          childCpuMs: children.ms,
          liveChildren: children.count,
        }),
      );
    } catch {
      // nothing to report to
    }
  });
}
