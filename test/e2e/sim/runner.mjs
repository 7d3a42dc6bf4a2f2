#!/usr/bin/env node
// Runs ONE real agent CLI against the simulator and prints a JSON result on stdout.
// The harness starts this script inside `unshare -n` when it can, so the simulator and the CLI share a
// loopback-only network namespace; it brings `lo` up first. Imports the simulator from dist/.
// Usage: node runner.mjs <config.json>
import { importSim, loadConfig, runCli, writeFiles } from './runner-common.mjs';

const cfg = loadConfig();
const { startSimulator } = await importSim();
const sim = await startSimulator({ tape: cfg.tape });
const setup = sim.clientEnv(cfg.cli, { home: cfg.home, maxRetries: cfg.maxRetries, model: cfg.model });
writeFiles(setup.files);

const result = await runCli(cfg, setup.env, () => sim.requests.length);
await sim.close();
process.stdout.write(JSON.stringify({ ...result, requests: sim.requests, events: sim.events, url: sim.url }));
