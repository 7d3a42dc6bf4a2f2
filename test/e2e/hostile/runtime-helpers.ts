/** Shared by the hostile runtime suites: throwaway projects with command agents, unique sleep tokens. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from '../../unit/run/helpers.js';

/** A sleep duration no other process on the machine has: `sleep <token>` is findable in /proc. */
export function sleepToken(): string {
  return `${300 + Math.floor(Math.random() * 600)}.${String(Math.random()).slice(2, 10)}`;
}

/**
 * A project whose `scenarios` are written as JSON files and whose agents are `command` agents running
 * `/bin/sh -c <script>` (the prompt arrives on stdin).
 */
export function shellProject(
  agents: Record<string, string>,
  scenarios: Record<string, Record<string, unknown>>,
  extra: Record<string, unknown> = {},
  files: Record<string, string | object> = {},
): string {
  const dir = makeProject(files);
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify(
      {
        scenarios: './scenarios',
        agents: Object.entries(agents).map(([name, script]) => ({
          agent: 'command',
          name,
          command: '/bin/sh',
          args: ['-c', script],
        })),
        ...extra,
      },
      null,
      2,
    ),
  );
  for (const [key, s] of Object.entries(scenarios)) {
    writeFileSync(
      join(dir, 'scenarios', `${key}.json`),
      JSON.stringify({ name: key, prompt: 'go', judge: [{ check: 'it ran' }], ...s }),
    );
  }
  return dir;
}
