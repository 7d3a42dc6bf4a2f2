// The spawn floor: a plain Node script that runs the same child AXIS's `command` agent runs, N times at
// concurrency C, writing the prompt to stdin and splitting stdout into lines, and does nothing else.
// Usage: node spawn-floor.mjs <jobs> <concurrency> <command> [args…]
import { spawn } from 'node:child_process';

const [jobs, concurrency, command, ...args] = process.argv.slice(2);
let next = 0;
let lines = 0;

function one() {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => {});
    child.stdin.end('Describe the project.');
    let tail = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const parts = (tail + chunk).split('\n');
      tail = parts.pop();
      lines += parts.length;
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', resolve);
  });
}

async function worker() {
  while (next < Number(jobs)) {
    next++;
    await one();
  }
}

await Promise.all(Array.from({ length: Math.min(Number(concurrency), Number(jobs)) }, worker));
if (lines === 0) throw new Error('the child printed nothing');
