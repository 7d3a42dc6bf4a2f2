#!/usr/bin/env node
// Runs ONE real agent CLI through the recorder (phase "record": a simulator on a scripted tape is the
// upstream) or against a replay of a recorded tape (phase "replay"), and prints a JSON result on stdout.
// Started inside `unshare -n` when possible, so every server and the CLI share a loopback-only network.
// Usage: node record-replay-runner.mjs <config.json>
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

const sim = await import(pathToFileURL(join(root, 'dist/sim/index.js')).href);
for (const [rel, content] of Object.entries(cfg.files ?? {})) {
  mkdirSync(dirname(join(cfg.workspace, rel)), { recursive: true });
  writeFileSync(join(cfg.workspace, rel), content);
}

let setup;
let finish;
if (cfg.phase === 'record') {
  const upstream = await sim.startSimulator({ tape: cfg.tape });
  const exchanges = [];
  const recorder = await sim.startRecorder({
    upstream: upstream.url,
    out: cfg.out,
    onExchange: (x) => exchanges.push(x),
  });
  setup = recorder.clientEnv(cfg.cli, { home: cfg.home, maxRetries: cfg.maxRetries, apiKey: cfg.apiKey });
  finish = async () => {
    const recording = await recorder.stop();
    await upstream.close();
    return { exchanges, recording, requests: upstream.requests, events: upstream.events };
  };
} else {
  const server = await sim.startReplay({ tape: cfg.out, strict: cfg.strict === true });
  setup = server.clientEnv(cfg.cli, { home: cfg.home, maxRetries: cfg.maxRetries });
  finish = async () => {
    await server.close();
    return { requests: server.requests, events: server.events };
  };
}
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
killGroup();
const servers = await finish();
process.stdout.write(
  JSON.stringify({
    exitCode,
    signal,
    timedOut,
    durationMs: Date.now() - started,
    stdout,
    stderr: stderr.slice(-20000),
    ...servers,
  }),
);
