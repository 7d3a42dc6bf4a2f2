// The storing floor of one long run: what any tool that keeps a transcript must do with it, and nothing
// more, done the cheapest plain way measured here. It spawns the child, copies its stdout's bytes to a
// raw file as they come, splits the output into lines, parses each line as JSON, and writes the parsed
// events as one pretty-printed JSON file (AXIS's detail file holds the same events, also pretty-printed),
// a megabyte at a time. No scoring, no judge, no report.json or report.html.
// Until the twenty-sixth round it wrote that file as one 30 MB string (`JSON.stringify` of the whole
// value) and the raw copy through a write stream: the same bytes, ~0.2 s more CPU and ~90 MB more peak
// RSS on the 20 MB run, which made the floor look higher than it is (docs/performance.md).
// Usage: node store-floor.mjs <out dir> <command> [args…]
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { TextDecoder } from 'node:util';

const [outDir, command, ...args] = process.argv.slice(2);
const raw = openSync(join(outDir, 'floor.raw.ndjson'), 'w');
const events = [];
const decoder = new TextDecoder();
let tail = '';
const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.on('data', (bytes) => {
  writeSync(raw, bytes);
  const lines = (tail + decoder.decode(bytes, { stream: true })).split('\n');
  tail = lines.pop();
  for (const line of lines) if (line) events.push(JSON.parse(line));
});
await new Promise((resolve, reject) => {
  child.on('error', reject);
  child.on('close', resolve);
});
closeSync(raw);
if (events.length === 0) throw new Error('the child printed nothing');

// `JSON.stringify({ transcript: { events } }, null, 2)`, byte for byte: each event is stringified on
// its own and indented to its depth (a newline in a JSON text is always structure, never inside a string).
const out = openSync(join(outDir, 'floor.json'), 'w');
let parts = ['{\n  "transcript": {\n    "events": [\n'];
let size = 0;
for (let i = 0; i < events.length; i++) {
  const text = `      ${JSON.stringify(events[i], null, 2).replaceAll('\n', '\n      ')}${i + 1 < events.length ? ',\n' : '\n'}`;
  parts.push(text);
  size += text.length;
  if (size > 2 ** 20) {
    writeSync(out, parts.join(''));
    parts = [];
    size = 0;
  }
}
parts.push('    ]\n  }\n}');
writeSync(out, parts.join(''));
closeSync(out);
