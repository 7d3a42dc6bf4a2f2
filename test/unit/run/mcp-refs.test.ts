/**
 * `${NAME}` references in `mcp_servers` (docs/configuration.md#mcp_servers) are resolved from the host
 * environment when the run starts: the agent gets the values, never the literal `${NAME}`, and a variable
 * that is not set stops the run before any job (exit 2) naming the file and the field.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../../src/runner/run.js';
import { AxisError } from '../../../src/util/errors.js';
import { makeProject, nodeAgent, removeTempDirs, scenario } from './helpers.js';

afterAll(removeTempDirs);
afterEach(() => vi.unstubAllEnvs());

const T = 30_000;

/** Copies the MCP file AXIS hands a `command` agent into its workspace, for `artifacts` to capture. */
const COPY_MCP = `import { copyFileSync } from 'node:fs';
copyFileSync(process.env.AXIS_MCP_CONFIG, 'mcp.json');
process.stdout.write('copied\\n');
`;

function project(scenarioServers: Record<string, unknown>): string {
  const dir = makeProject({
    'agent.mjs': COPY_MCP,
    'scenarios/hello.json': scenario('use the servers', { mcp_servers: scenarioServers }),
  });
  const config = {
    scenarios: './scenarios',
    agents: [nodeAgent('toy', join(dir, 'agent.mjs'))],
    artifacts: ['mcp.json'],
    mcp_servers: {
      local: {
        type: 'stdio',
        command: 'node',
        // In args too: else Claude Code and Gemini CLI expand it from the job env, the others not at all.
        args: ['server.mjs', '--tag=${AXIS_T_TAG}'],
        env: { TAG: 'tag=${AXIS_T_TAG}', PLAIN: '$NOT_A_REF' },
      },
    },
  };
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(config, null, 2));
  return dir;
}

const reportsOf = (dir: string) =>
  existsSync(join(dir, '.axis/reports')) ? readdirSync(join(dir, '.axis/reports')) : [];

describe('mcp_servers ${NAME} references', () => {
  it(
    'reach the agent resolved from the host environment',
    async () => {
      vi.stubEnv('AXIS_T_TAG', 'host'); // short: a longer value put into env is masked in the report
      vi.stubEnv('AXIS_T_PORT', '4123');
      vi.stubEnv('AXIS_T_USER', 'alice');
      const dir = project({
        web: {
          type: 'http',
          url: 'http://127.0.0.1:${AXIS_T_PORT}/mcp',
          headers: { 'X-User': '${AXIS_T_USER}-${AXIS_T_USER}' },
        },
      });
      const out = await run({ configPath: dir, cwd: dir, score: false });
      expect(out.results.map((r) => r.status)).toEqual(['completed']);
      const file = join(out.reportDir, 'scenarios/hello/toy/artifacts/mcp.json');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        mcpServers: {
          local: {
            type: 'stdio',
            command: 'node',
            args: ['server.mjs', '--tag=host'],
            env: { TAG: 'tag=host', PLAIN: '$NOT_A_REF' },
          },
          web: { type: 'http', url: 'http://127.0.0.1:4123/mcp', headers: { 'X-User': 'alice-alice' } },
        },
      });
    },
    T,
  );

  it(
    'an unset variable stops the run before any job, naming the file and the field (exit 2)',
    async () => {
      vi.stubEnv('AXIS_T_TAG', undefined);
      vi.stubEnv('AXIS_T_PORT', '4123');
      vi.stubEnv('AXIS_T_MISSING', undefined);
      const dir = project({
        web: { type: 'http', url: 'http://127.0.0.1:${AXIS_T_PORT}/${AXIS_T_MISSING}' },
      });
      const err = await run({ configPath: dir, cwd: dir, score: false }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AxisError);
      expect((err as AxisError).exitCode).toBe(2);
      const message = (err as AxisError).message;
      expect(message).toContain(
        'axis.config.json: mcp_servers.local.env.TAG: ${AXIS_T_TAG} is not set in the host environment',
      );
      expect(message).toContain(
        'scenarios/hello.json: mcp_servers.web.url: ${AXIS_T_MISSING} is not set in the host environment',
      );
      expect(message).toContain(
        'axis.config.json: mcp_servers.local.args[1]: ${AXIS_T_TAG} is not set in the host environment',
      );
      expect(reportsOf(dir)).toEqual([]);
    },
    T,
  );

  it(
    'a value a reference puts into headers or env never reaches a report file, whatever its name',
    async () => {
      // Neither name looks like a secret's, so only the references mark the values as credentials.
      vi.stubEnv('AXIS_T_TAG', 'tag-value-in-env-1234');
      vi.stubEnv('AXIS_T_PORT', '4123');
      vi.stubEnv('AXIS_T_SVC', 'svc-credential-98765');
      vi.stubEnv('AXIS_T_ARG', 'arg-credential-24680');
      const dir = makeProject({
        'agent.mjs': `import { copyFileSync, readFileSync } from 'node:fs';
copyFileSync(process.env.AXIS_MCP_CONFIG, 'mcp.json');
process.stdout.write(readFileSync('mcp.json', 'utf8') + '\\n');
`,
        'scenarios/hello.json': scenario('use the servers', {
          mcp_servers: {
            web: {
              type: 'http',
              url: 'http://127.0.0.1:${AXIS_T_PORT}/mcp',
              headers: { Authorization: 'Bearer ${AXIS_T_SVC}' },
            },
          },
        }),
      });
      const config = {
        scenarios: './scenarios',
        agents: [nodeAgent('toy', join(dir, 'agent.mjs'))],
        artifacts: ['mcp.json'],
        mcp_servers: {
          local: {
            type: 'stdio',
            command: 'node',
            args: ['--key', '${AXIS_T_ARG}'],
            env: { TAG: '${AXIS_T_TAG}' },
          },
        },
      };
      writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(config, null, 2));
      const out = await run({ configPath: dir, cwd: dir, score: false });
      expect(out.results.map((r) => r.status)).toEqual(['completed']);
      const files = readdirSync(out.reportDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
      const texts = files.map((f) => readFileSync(f, 'utf8'));
      // The agent printed the file, so its stdout held both values; the report masks them everywhere.
      expect(texts.join('\n')).toContain('[REDACTED]');
      for (const [i, text] of texts.entries()) {
        expect(text, files[i]).not.toContain('svc-credential-98765');
        expect(text, files[i]).not.toContain('tag-value-in-env-1234');
        expect(text, files[i]).not.toContain('arg-credential-24680');
      }
      // The port, in the URL, is not a credential: kept.
      expect(texts.join('\n')).toContain('127.0.0.1:4123/mcp');
    },
    T,
  );
});
