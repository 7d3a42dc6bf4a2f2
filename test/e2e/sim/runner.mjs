#!/usr/bin/env node
// Runs ONE real agent CLI against the simulator and prints a JSON result on stdout.
// The harness starts this script inside `unshare -n` when it can, so the simulator and the CLI share a
// loopback-only network namespace; it brings `lo` up first. Imports the simulator from dist/.
// Usage: node runner.mjs <config.json>
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8'));

if (cfg.netns) {
  const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  if (up.status !== 0) {
    process.stdout.write(JSON.stringify({ setupError: `ip link set lo up failed: ${up.stderr}` }));
    process.exit(0);
  }
}

const { startSimulator } = await import(pathToFileURL(join(root, 'dist/sim/index.js')).href);
const sim = await startSimulator({ tape: cfg.tape });
const setup = sim.clientEnv(cfg.cli, { home: cfg.home, maxRetries: cfg.maxRetries, model: cfg.model });
for (const f of setup.files) {
  mkdirSync(dirname(f.path), { recursive: true });
  writeFileSync(f.path, f.content);
}

const env = { PATH: process.env.PATH, LANG: 'C.UTF-8', TERM: 'dumb', ...setup.env, ...(cfg.env ?? {}) };
const started = Date.now();
const child = spawn(join(root, 'node_modules/.bin', cfg.cli), cfg.args, {
  cwd: cfg.workspace,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let stdout = '';
let stderr = '';
child.stdout.on('data', (c) => (stdout += c));
child.stderr.on('data', (c) => (stderr += c));
const killGroup = () => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  killGroup();
}, cfg.timeoutMs);

const [exitCode, signal] = await new Promise((resolve) =>
  child.on('close', (code, sig) => resolve([code, sig])),
);
clearTimeout(timer);
killGroup(); // stragglers the CLI left in its group
await sim.close();
process.stdout.write(
  JSON.stringify({
    exitCode,
    signal,
    timedOut,
    durationMs: Date.now() - started,
    stdout,
    stderr: stderr.slice(-20000),
    requests: sim.requests,
    events: sim.events,
    url: sim.url,
  }),
);
