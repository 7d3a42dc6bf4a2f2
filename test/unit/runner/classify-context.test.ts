import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { classifyContext } from '../../../src/runner/scoring-stage.js';
import { makeProject, removeTempDirs } from '../run/helpers.js';

afterAll(removeTempDirs);

const server = (name: string) => ({ type: 'stdio', command: 'node', args: [`${name}.js`] });

describe('classifyContext', () => {
  it("names the config's MCP servers and the job's own scenario's, for every scenario of the run", async () => {
    const files: Record<string, object> = {
      'axis.config.json': {
        scenarios: './scenarios',
        agents: ['claude-code'],
        mcp_servers: { shared: server('shared') },
        classify: { 'mcp__shared__*': 'service' },
      },
    };
    for (let i = 0; i < 40; i++)
      files[`scenarios/s${i}.json`] = {
        name: `S${i}`,
        prompt: 'p',
        judge: [{ check: 'c' }],
        ...(i % 2 ? { mcp_servers: { [`own${i}`]: server(`own${i}`) } } : {}),
      };
    const loaded = await loadConfig(makeProject(files));
    const agent = loaded.config.agents[0]!;
    for (let i = 0; i < 40; i++) {
      const ctx = classifyContext(loaded, { agent, scenarioKey: `s${i}` });
      expect(ctx.mcpServers).toEqual(i % 2 ? ['shared', `own${i}`] : ['shared']);
      expect(ctx.adapter).toBe(agent.agent);
      expect(ctx.rules).toEqual({ 'mcp__shared__*': 'service' });
    }
    // A key the config does not have (a report from another config): the config's servers alone.
    expect(classifyContext(loaded, { agent, scenarioKey: 'gone' }).mcpServers).toEqual(['shared']);
  });
});
