// The storing floor of one long run: what any tool that keeps a transcript must do with it, and nothing
// more. It spawns the child, splits its stdout into lines, copies them to a raw file, parses each line
// as JSON, and writes the parsed events as one pretty-printed JSON file (AXIS's detail file holds the
// same events, also pretty-printed). No scoring, no judge, no report.json or report.html.
// Usage: node store-floor.mjs <out dir> <command> [args…]
import { spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, command, ...args] = process.argv.slice(2);
const raw = createWriteStream(join(outDir, 'floor.raw.ndjson'));
const events = [];
let tail = '';
const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  raw.write(chunk);
  const lines = (tail + chunk).split('\n');
  tail = lines.pop();
  for (const line of lines) if (line) events.push(JSON.parse(line));
});
await new Promise((resolve, reject) => {
  child.on('error', reject);
  child.on('close', resolve);
});
if (events.length === 0) throw new Error('the child printed nothing');
writeFileSync(join(outDir, 'floor.json'), JSON.stringify({ transcript: { events } }, null, 2));
await new Promise((resolve) => raw.end(resolve));
