#!/usr/bin/env node
// Runs ONE real agent CLI through the recorder (phase "record": a simulator on a scripted tape is the
// upstream) or against a replay of a recorded tape (phase "replay"), and prints a JSON result on stdout.
// Started inside `unshare -n` when possible, so every server and the CLI share a loopback-only network.
// Usage: node record-replay-runner.mjs <config.json>
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importSim, loadConfig, runCli, writeFiles } from './runner-common.mjs';

const cfg = loadConfig();
const sim = await importSim();
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
writeFiles(setup.files);

const result = await runCli(cfg, setup.env);
const servers = await finish();
process.stdout.write(JSON.stringify({ ...result, ...servers }));
