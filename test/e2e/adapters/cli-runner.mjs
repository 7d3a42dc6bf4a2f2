#!/usr/bin/env node
// Runs ONE built-in adapter with its real CLI against the simulator and prints a JSON report on stdout.
// cli-harness.ts starts it inside `unshare -n` when it can (loopback-only network namespace). Imports the
// built modules in dist/ (test/global-setup.ts builds them first): loading the sources through jiti
// instead cost 1.0–1.3 s of CPU per case, against 0.3 s.
// Usage: node cli-runner.mjs <case.json>
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const { AbortController } = globalThis;

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const c = JSON.parse(readFileSync(process.argv[2], 'utf8'));

if (c.netns) {
  const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  if (up.status !== 0) {
    process.stdout.write(JSON.stringify({ setupError: `ip link set lo up failed: ${up.stderr}` }));
    process.exit(0);
  }
}

const load = (p) => import(pathToFileURL(join(root, 'dist', p)).href);
const { startSimulator, SIM_API_KEY } = await load('sim/index.js');
const { getAdapter } = await load('adapters/registry.js');
const { buildAgentEnv } = await load('exec/env.js');
const { createWorkspace, removeWorkspace } = await load('exec/workspace.js');

/** Pids of live processes whose cwd is inside `dir` (as processesIn in helpers.ts, which is TypeScript). */
function leftoversIn(dir) {
  return readdirSync('/proc').filter((name) => {
    try {
      const cwd = /^\d+$/.test(name) && readlinkSync(`/proc/${name}/cwd`);
      return cwd === dir || (cwd && cwd.startsWith(`${dir}/`));
    } catch {
      return false; // gone or not ours
    }
  });
}

function listFiles(dir, base = dir, out = {}) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) listFiles(p, base, out);
    else out[relative(base, p)] = st.size < 4096 ? readFileSync(p, 'utf8') : `<${st.size} bytes>`;
  }
  return out;
}

// For each needle, the number of request bodies that contain it (a skill's name, an MCP tool's name).
const needleHits = Object.fromEntries((c.needles ?? []).map((n) => [n, 0]));
const sim = await startSimulator({
  tape: c.tape,
  onBody: (_seq, body) => {
    for (const n of c.needles ?? []) if (body.includes(n)) needleHits[n] += 1;
  },
});
const ws = await createWorkspace({ prefix: `axis-e2e-${c.agent.agent}-` });
let report;
try {
  for (const [rel, content] of Object.entries(c.homeFiles ?? {})) {
    mkdirSync(dirname(join(ws.home, rel)), { recursive: true });
    writeFileSync(join(ws.home, rel), content);
  }
  const adapter = await getAdapter(c.agent.agent, {
    configDir: c.configDir ?? root,
    config: { adapters: {} },
  });
  const providerEnv = c.providerEnv === false ? {} : adapter.providerEnvFor(sim.url, SIM_API_KEY);
  const env = buildAgentEnv({
    home: ws.home,
    tmpDir: ws.tmp,
    values: { ...providerEnv, ...c.env, ...c.agent.env },
  });
  if (c.agent.command === '$gemini') c.agent.command = join(root, 'node_modules/.bin/gemini');
  let rawLines = 0;
  let stderr = '';
  const usage = [];
  const started = Date.now();
  const transcript = await adapter.run({
    agent: c.agent,
    prompt: c.prompt,
    workDir: ws.work,
    homeDir: ws.home,
    tmpDir: ws.tmp,
    env,
    mcpServers: c.mcpServers ?? {},
    skills: c.skills ?? [],
    timeoutMs: c.timeoutMs,
    signal: new AbortController().signal,
    maxRetries: c.maxRetries,
    onRawLine: () => rawLines++,
    onUsage: (u) => usage.push(u),
    onStderr: (t) => (stderr = (stderr + t).slice(-8000)),
  });
  report = {
    transcript,
    wallMs: Date.now() - started,
    files: listFiles(ws.work),
    homeFiles: c.listHome ? Object.keys(listFiles(ws.home)) : [],
    leftovers: leftoversIn(ws.root).map(Number),
    rawLines,
    usageUpdates: usage.length,
    stderr,
    requests: sim.requests.map((r) => ({
      path: r.path,
      status: r.status,
      answer: r.answer,
      summary: r.summary,
      tools: r.tools,
      model: r.model,
    })),
    simEvents: sim.events,
    needleHits,
  };
} catch (err) {
  report = { setupError: err && err.stack ? err.stack : String(err) };
} finally {
  await sim.close();
  await removeWorkspace(ws, () => {});
}
// Long texts (a huge prompt) are cut; the pipe is drained before exiting.
const json = JSON.stringify(report, (k, v) =>
  typeof v === 'string' && v.length > 20000 ? `${v.slice(0, 2000)}…<${v.length} chars>` : v,
);
process.stdout.write(json, () => process.exit(0));
