import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapTool, type NeutralTool } from '../../../src/sim/index.js';
import type { OfferedTool } from '../../../src/sim/types.js';
import { OFFERED, type CliName } from './helpers.js';

const CWD = '/work/ws';
const tools: Record<string, NeutralTool> = {
  shell: { shell: 'ls -la' },
  write_file: { write_file: { path: 'sub/out.txt', content: 'hello' } },
  read_file: { read_file: { path: 'sub/out.txt' } },
  edit_file: { edit_file: { path: 'sub/out.txt', old: 'hello', new: 'bye' } },
  fetch: { fetch: { url: 'http://127.0.0.1:9/page' } },
};

const BRIDGE_TOOLS: OfferedTool[] = [
  {
    name: 'mcp__acp__Read',
    schema: {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'The absolute path to the file to read' },
        offset: {
          default: 1,
          description:
            'The line number to start reading from. Only provide if the file is too large to read at once',
          type: 'number',
        },
        limit: {
          default: 2000,
          description: 'The number of lines to read. Only provide if the file is too large to read at once.',
          type: 'number',
        },
      },
      required: ['file_path'],
    },
  },
  {
    name: 'mcp__acp__Write',
    schema: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
          description: 'The absolute path to the file to write (must be absolute, not relative)',
        },
        content: { type: 'string', description: 'The content to write to the file' },
      },
      required: ['file_path', 'content'],
    },
  },
  {
    name: 'mcp__acp__Edit',
    schema: {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'The absolute path to the file to modify' },
        old_string: { type: 'string', description: 'The text to replace' },
        new_string: {
          type: 'string',
          description: 'The text to replace it with (must be different from old_string)',
        },
        replace_all: {
          description: 'Replace all occurrences of old_string (default false)',
          default: false,
          type: 'boolean',
        },
      },
      required: ['file_path', 'old_string', 'new_string'],
    },
  },
];

function mapped(cli: CliName, tool: NeutralTool) {
  const m = mapTool(tool, OFFERED[cli], CWD);
  if (!m.ok) throw new Error(m.message);
  return { name: m.name, args: m.args };
}

describe('neutral tools → the tools each pinned CLI offers', () => {
  it('Claude Code: Bash, Write, Read, Edit, WebFetch with absolute file_path', () => {
    expect(mapped('claude', tools.shell!)).toEqual({ name: 'Bash', args: { command: 'ls -la' } });
    expect(mapped('claude', tools.write_file!)).toEqual({
      name: 'Write',
      args: { file_path: '/work/ws/sub/out.txt', content: 'hello' },
    });
    expect(mapped('claude', tools.read_file!)).toEqual({
      name: 'Read',
      args: { file_path: '/work/ws/sub/out.txt' },
    });
    expect(mapped('claude', tools.edit_file!)).toEqual({
      name: 'Edit',
      args: { file_path: '/work/ws/sub/out.txt', old_string: 'hello', new_string: 'bye' },
    });
    // WebFetch requires a prompt, filled generically.
    expect(mapped('claude', tools.fetch!)).toEqual({
      name: 'WebFetch',
      args: { url: 'http://127.0.0.1:9/page', prompt: 'Return the content of the page.' },
    });
  });

  it("the Claude ACP bridge: its own mcp__acp__ Write, Read and Edit replace Claude Code's, with absolute paths", () => {
    // Recorded from @zed-industries/claude-code-acp 0.16.2 with an ACP client offering file access.
    const bridge = BRIDGE_TOOLS;
    const offered = [...OFFERED.claude.filter((t) => !['Write', 'Read', 'Edit'].includes(t.name)), ...bridge];
    const map = (tool: NeutralTool) => {
      const m = mapTool(tool, offered, CWD);
      return m.ok ? { name: m.name, args: m.args } : m.message;
    };
    expect(map(tools.write_file!)).toEqual({
      name: 'mcp__acp__Write',
      args: { file_path: '/work/ws/sub/out.txt', content: 'hello' },
    });
    expect(map(tools.read_file!)).toEqual({
      name: 'mcp__acp__Read',
      args: { file_path: '/work/ws/sub/out.txt' },
    });
    expect(map(tools.edit_file!)).toEqual({
      name: 'mcp__acp__Edit',
      args: { file_path: '/work/ws/sub/out.txt', old_string: 'hello', new_string: 'bye' },
    });
    expect(map(tools.shell!)).toEqual({ name: 'Bash', args: { command: 'ls -la' } });
  });

  it('Gemini CLI: run_shell_command, write_file, read_file, replace (with instruction), web_fetch (URL in prompt); relative paths kept', () => {
    expect(mapped('gemini', tools.shell!)).toEqual({
      name: 'run_shell_command',
      args: { command: 'ls -la' },
    });
    expect(mapped('gemini', tools.write_file!)).toEqual({
      name: 'write_file',
      args: { file_path: 'sub/out.txt', content: 'hello' },
    });
    expect(mapped('gemini', tools.read_file!)).toEqual({
      name: 'read_file',
      args: { file_path: 'sub/out.txt' },
    });
    expect(mapped('gemini', tools.edit_file!)).toEqual({
      name: 'replace',
      args: {
        file_path: 'sub/out.txt',
        old_string: 'hello',
        new_string: 'bye',
        instruction: 'Replace the given text in sub/out.txt',
      },
    });
    expect(mapped('gemini', tools.fetch!)).toEqual({
      name: 'web_fetch',
      args: { prompt: 'Fetch http://127.0.0.1:9/page and return its content.' },
    });
  });

  it('Qwen Code: run_shell_command, write_file, read_file, edit, web_fetch with absolute file_path', () => {
    expect(mapped('qwen', tools.shell!)).toEqual({ name: 'run_shell_command', args: { command: 'ls -la' } });
    expect(mapped('qwen', tools.write_file!)).toEqual({
      name: 'write_file',
      args: { file_path: '/work/ws/sub/out.txt', content: 'hello' },
    });
    expect(mapped('qwen', tools.read_file!)).toEqual({
      name: 'read_file',
      args: { file_path: '/work/ws/sub/out.txt' },
    });
    expect(mapped('qwen', tools.edit_file!)).toEqual({
      name: 'edit',
      args: { file_path: '/work/ws/sub/out.txt', old_string: 'hello', new_string: 'bye' },
    });
    expect(mapped('qwen', tools.fetch!)).toEqual({
      name: 'web_fetch',
      args: { url: 'http://127.0.0.1:9/page', prompt: 'Return the content of the page.' },
    });
  });

  it('opencode: bash, write, read, edit, webfetch with camelCase args and absolute filePath', () => {
    expect(mapped('opencode', tools.shell!)).toEqual({ name: 'bash', args: { command: 'ls -la' } });
    expect(mapped('opencode', tools.write_file!)).toEqual({
      name: 'write',
      args: { filePath: '/work/ws/sub/out.txt', content: 'hello' },
    });
    expect(mapped('opencode', tools.read_file!)).toEqual({
      name: 'read',
      args: { filePath: '/work/ws/sub/out.txt' },
    });
    expect(mapped('opencode', tools.edit_file!)).toEqual({
      name: 'edit',
      args: { filePath: '/work/ws/sub/out.txt', oldString: 'hello', newString: 'bye' },
    });
    expect(mapped('opencode', tools.fetch!)).toEqual({
      name: 'webfetch',
      args: { url: 'http://127.0.0.1:9/page' },
    });
  });

  it('Codex: only exec_command, so file tools and fetch become shell commands', () => {
    expect(mapped('codex', tools.shell!)).toEqual({ name: 'exec_command', args: { cmd: 'ls -la' } });
    for (const kind of ['write_file', 'read_file', 'edit_file', 'fetch']) {
      const m = mapTool(tools[kind]!, OFFERED.codex, CWD);
      expect(m).toMatchObject({ ok: true, name: 'exec_command', viaShell: true });
    }
    expect(mapped('codex', tools.fetch!).args).toEqual({ cmd: "curl -fsSL 'http://127.0.0.1:9/page'" });
  });

  it('Codex shell equivalents really write, read and edit files (awkward content included)', () => {
    const ws = mkdtempSync(join(tmpdir(), 'axis-codex-shell-'));
    const run = (tool: NeutralTool) => {
      const cmd = mapped('codex', tool).args.cmd as string;
      return execFileSync('bash', ['-lc', cmd], { cwd: ws, encoding: 'utf8' });
    };
    const content = `line 1 with 'quotes' and "doubles"\n$HOME \`ticks\` %s\\n\nend`;
    run({ write_file: { path: 'deep/dir/f.txt', content } });
    expect(readFileSync(join(ws, 'deep/dir/f.txt'), 'utf8')).toBe(content);
    expect(run({ read_file: { path: 'deep/dir/f.txt' } })).toBe(content);
    run({ edit_file: { path: 'deep/dir/f.txt', old: "'quotes'", new: '$replaced$' } });
    expect(readFileSync(join(ws, 'deep/dir/f.txt'), 'utf8')).toBe(content.replace("'quotes'", '$replaced$'));
    writeFileSync(join(ws, 'g.txt'), 'abc');
    expect(() => run({ edit_file: { path: 'g.txt', old: 'zzz', new: 'y' } })).toThrow(/old text not found/);
    rmSync(ws, { recursive: true, force: true });
  });

  it('fails loudly, naming the wanted and offered tools, when a CLI lacks the tool (no shell fallback outside Codex)', () => {
    const withoutWrite = OFFERED.claude.filter((t) => t.name !== 'Write');
    const m = mapTool(tools.write_file!, withoutWrite, CWD);
    expect(m.ok).toBe(false);
    if (m.ok) return;
    expect(m.wanted).toEqual(['Write', 'write_file', 'write', 'mcp__acp__Write']);
    expect(m.offered).toContain('Bash');
    expect(m.message).toMatch(
      /^tape tool write_file sub\/out\.txt needs one of Write, write_file, write, mcp__acp__Write, but the agent offered Agent, Bash/,
    );
    expect(mapTool({ shell: 'ls' }, [], CWD)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/offered no tools$/),
    });
  });

  it('maps MCP tools by each CLI naming scheme and fails loudly when the server is absent', () => {
    const schema = {
      type: 'object',
      properties: { q: { type: 'string' }, limit: { type: 'integer' } },
      required: ['q', 'limit'],
    };
    const tool: NeutralTool = { mcp: { server: 'docs', tool: 'search', args: { q: 'x' } } };
    for (const name of ['mcp__docs__search', 'mcp_docs_search', 'docs_search']) {
      expect(mapTool(tool, [{ name: 'Bash' }, { name, schema }], CWD)).toEqual({
        ok: true,
        name,
        args: { q: 'x', limit: 1 },
      });
    }
    for (const cli of Object.keys(OFFERED).filter((k) => k !== '_comment') as CliName[]) {
      const m = mapTool(tool, OFFERED[cli], CWD);
      expect(m).toMatchObject({
        ok: false,
        wanted: ['mcp__docs__search', 'mcp_docs_search', 'docs__search', 'docs_search'],
      });
    }
  });

  it('passes raw tools through unchanged when offered', () => {
    expect(mapTool({ raw: { name: 'TaskList', args: { any: 1 } } }, OFFERED.claude, CWD)).toEqual({
      ok: true,
      name: 'TaskList',
      args: { any: 1 },
    });
    expect(mapTool({ raw: { name: 'Nope' } }, OFFERED.claude, CWD)).toMatchObject({
      ok: false,
      wanted: ['Nope'],
    });
  });

  it('leaves a relative path as is (and says so) when the tool wants it absolute but no cwd is known', () => {
    const m = mapTool(tools.write_file!, OFFERED.claude);
    expect(m).toMatchObject({ ok: true, args: { file_path: 'sub/out.txt' }, unresolvedPath: 'sub/out.txt' });
    expect(mapTool({ write_file: { path: '/abs/f', content: '' } }, OFFERED.claude)).not.toHaveProperty(
      'unresolvedPath',
    );
  });
});
