// Preloaded (--import) into a measured child: on exit it writes its peak RSS and CPU time (its own, not
// its children's) as JSON to $AXIS_BENCH_RSS_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.AXIS_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    try {
      writeFileSync(
        file,
        JSON.stringify({ rssBytes: u.maxRSS * 1024, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }),
      );
    } catch {
      // nothing to report to
    }
  });
}
