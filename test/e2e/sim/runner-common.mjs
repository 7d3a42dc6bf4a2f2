// Shared by runner.mjs and record-replay-runner.mjs: config loading (with `lo` brought up inside a
// loopback-only namespace), writing the CLI's config files, and running ONE agent CLI to completion.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The runner's JSON config; inside a fresh network namespace, brings `lo` up or reports why not. */
export function loadConfig() {
  const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  if (cfg.netns) {
    const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { encoding: 'utf8' });
    if (up.status !== 0) {
      process.stdout.write(JSON.stringify({ setupError: `ip link set lo up failed: ${up.stderr}` }));
      process.exit(0);
    }
  }
  return cfg;
}

export function importSim() {
  return import(pathToFileURL(join(root, 'dist/sim/index.js')).href);
}

export function writeFiles(files) {
  for (const f of files) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
  }
}

/**
 * Runs the CLI in its own process group with a wall-clock limit; kills stragglers afterwards. With
 * `cfg.killAfterFirstRequestMs` and `requestCount` the group is also killed that long after the simulator
 * served its first request: a case about what happens once requests fail then does not depend on how
 * long the CLI took to start on a loaded machine (`timeoutMs` still bounds the whole run).
 */
export async function runCli(cfg, setupEnv, requestCount) {
  const env = { PATH: process.env.PATH, LANG: 'C.UTF-8', TERM: 'dumb', ...setupEnv, ...(cfg.env ?? {}) };
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
  const timeOut = () => {
    timedOut = true;
    killGroup();
  };
  const timers = [setTimeout(timeOut, cfg.timeoutMs)];
  if (cfg.killAfterFirstRequestMs !== undefined && requestCount) {
    const poll = setInterval(() => {
      if (requestCount() === 0) return;
      clearInterval(poll);
      timers.push(setTimeout(timeOut, cfg.killAfterFirstRequestMs));
    }, 50);
    timers.push(poll);
  }
  const [exitCode, signal] = await new Promise((resolve) =>
    child.on('close', (code, sig) => resolve([code, sig])),
  );
  for (const t of timers) clearTimeout(t); // an interval is cleared the same way
  killGroup(); // stragglers the CLI left in its group
  return {
    exitCode,
    signal,
    timedOut,
    durationMs: Date.now() - started,
    stdout,
    stderr: stderr.slice(-20000),
  };
}
