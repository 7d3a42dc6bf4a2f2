import { describe, expect, it } from 'vitest';
import { mapTool, type NeutralTool } from '../../../src/sim/index.js';
import { toNeutralTool } from '../../../src/sim/record-tools.js';
import { OFFERED, type CliName } from './helpers.js';

const CWD = '/work/ws';
const NEUTRAL: NeutralTool[] = [
  { shell: 'npm test -- --run' },
  { write_file: { path: 'src/a.ts', content: 'export const a = 1;\n' } },
  { read_file: { path: 'package.json' } },
  { edit_file: { path: 'src/a.ts', old: 'a = 1', new: 'a = 2' } },
  { fetch: { url: 'http://127.0.0.1:8080/health' } },
  { write_file: { path: '/etc/outside.txt', content: 'x' } },
];

describe('toNeutralTool: recorded calls back to neutral tools', () => {
  for (const cli of Object.keys(OFFERED).filter((k) => k !== '_comment') as CliName[]) {
    it(`${cli}: every call the simulator would make maps back to its neutral tool`, () => {
      const offered = OFFERED[cli];
      let mapped = 0;
      for (const tool of NEUTRAL) {
        const call = mapTool(tool, offered, CWD);
        if (!call.ok) continue;
        mapped += 1;
        const back = toNeutralTool({ id: 'x', name: call.name, args: call.args }, offered, CWD);
        // Codex has only a shell: file tools come back as the shell command they became.
        const expected = call.viaShell ? { shell: call.args.cmd } : tool;
        expect(back, JSON.stringify(call)).toEqual(expected);
      }
      expect(mapped).toBeGreaterThanOrEqual(4);
    });
  }

  it('a call the neutral form cannot reproduce exactly stays raw', () => {
    const offered = OFFERED.claude;
    // A model-written description and a timeout are not part of the neutral shell tool.
    const args = { command: 'ls', description: 'List files', timeout: 1000 };
    expect(toNeutralTool({ id: 'x', name: 'Bash', args }, offered, CWD)).toEqual({
      raw: { name: 'Bash', args },
    });
    // Read with an offset.
    const read = { file_path: `${CWD}/a.txt`, offset: 10 };
    expect(toNeutralTool({ id: 'x', name: 'Read', args: read }, offered, CWD)).toEqual({
      raw: { name: 'Read', args: read },
    });
    expect(toNeutralTool({ id: 'x', name: 'TodoWrite', args: {} }, offered, CWD)).toEqual({
      raw: { name: 'TodoWrite' },
    });
  });

  it('without a known working directory an absolute path stays absolute', () => {
    const call = { id: 'x', name: 'Write', args: { file_path: '/w/a.txt', content: 'x' } };
    expect(toNeutralTool(call, OFFERED.claude)).toEqual({ write_file: { path: '/w/a.txt', content: 'x' } });
  });

  it('an MCP call maps back when its arguments are complete', () => {
    const offered = [
      {
        name: 'mcp__docs__search',
        schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      },
    ];
    const call = { id: 'x', name: 'mcp__docs__search', args: { q: 'auth' } };
    expect(toNeutralTool(call, offered)).toEqual({
      mcp: { server: 'docs', tool: 'search', args: { q: 'auth' } },
    });
  });
});
