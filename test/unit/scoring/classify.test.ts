import { describe, expect, it } from 'vitest';
import { classifyTool, commandWords, shellCommand } from '../../../src/scoring/classify.js';
import type { Category } from '../../../src/scoring/types.js';
import { classified, error, text } from './helpers.js';

const E: Category[] = ['environment'];
const S: Category[] = ['service'];
const A: Category[] = ['agent'];

describe('classifyTool: the real tool names of each CLI', () => {
  const cases: Array<[string, string, Category[]]> = [
    ['Claude Code', 'Bash', E],
    ['Claude Code', 'BashOutput', E],
    ['Claude Code', 'KillShell', E],
    ['Claude Code', 'Read', E],
    ['Claude Code', 'Write', E],
    ['Claude Code', 'Edit', E],
    ['Claude Code', 'MultiEdit', E],
    ['Claude Code', 'NotebookEdit', E],
    ['Claude Code', 'Glob', E],
    ['Claude Code', 'Grep', E],
    ['Claude Code', 'LS', E],
    ['Claude Code', 'WebFetch', S],
    ['Claude Code', 'WebSearch', S],
    ['Claude Code', 'Task', A],
    ['Claude Code', 'Agent', A],
    ['Claude Code', 'TodoWrite', A],
    ['Claude Code', 'ExitPlanMode', A],
    ['Claude Code', 'ToolSearch', A],
    ['Claude Code', 'Skill', A],
    ['Claude Code', 'mcp__github__create_issue', S],
    ['Codex', 'shell', E],
    ['Codex', 'exec_command', E],
    ['Codex', 'apply_patch', E],
    ['Codex', 'file_change', E],
    ['Codex', 'mcp_tool_call', S],
    ['Codex', 'web_search', S],
    ['Codex', 'update_plan', A],
    ['Codex', 'todo_list', A],
    ['Codex', 'request_user_input', A],
    ['Gemini', 'run_shell_command', E],
    ['Gemini', 'read_file', E],
    ['Gemini', 'write_file', E],
    ['Gemini', 'replace', E],
    ['Gemini', 'list_directory', E],
    ['Gemini', 'glob', E],
    ['Gemini', 'grep_search', E],
    ['Gemini', 'search_file_content', E],
    ['Gemini', 'web_fetch', S],
    ['Gemini', 'google_web_search', S],
    ['Gemini', 'save_memory', A],
    ['Qwen', 'todo_write', A],
    ['Qwen', 'task', A],
    ['Qwen', 'tool_search', A],
    ['opencode', 'bash', E],
    ['opencode', 'read', E],
    ['opencode', 'write', E],
    ['opencode', 'edit', E],
    ['opencode', 'glob', E],
    ['opencode', 'grep', E],
    ['opencode', 'list', E],
    ['opencode', 'webfetch', S],
    ['opencode', 'todowrite', A],
    ['opencode', 'task', A],
    ['opencode', 'skill', A],
  ];
  it.each(cases)('%s %s', (_agent, name, categories) => {
    const c = classifyTool(name, {});
    expect(c.categories).toEqual(categories);
    expect(c.unclassified).toBe(false);
  });

  it('ignores case', () => {
    expect(classifyTool('BASH', {}).rule).toBe('table:bash');
    expect(classifyTool('webFetch', {}).categories).toEqual(S);
    expect(classifyTool('MCP__Srv__Tool', {}).categories).toEqual(S);
  });
});

describe('classifyTool: shell commands that call services', () => {
  it.each([
    ['Bash', { command: 'curl -s https://api.example.com/v1/items' }, 'curl'],
    ['Bash', { command: 'cd app && wget http://x/y.tar.gz' }, 'wget'],
    ['run_shell_command', { command: '/usr/bin/curl localhost:8080' }, 'curl'],
    ['exec_command', { cmd: 'gh api repos/o/r/issues' }, 'gh'],
    ['shell', { command: ['bash', '-lc', 'http POST :3000/items name=x'] }, 'http'],
    ['command_execution', { command: "/bin/bash -lc 'npx netlify deploy --prod'" }, 'netlify'],
    ['bash', { command: 'ls | xargs curl -O' }, 'curl'],
  ])('%s %j → environment + service', (name, input, client) => {
    expect(classifyTool(name, input)).toMatchObject({
      categories: ['environment', 'service'],
      rule: `http-client:${client}`,
      unclassified: false,
    });
  });

  it('does not treat an HTTP client named as an argument as a call', () => {
    expect(classifyTool('Bash', { command: 'echo curl is installed' }).categories).toEqual(E);
    expect(classifyTool('Bash', { command: 'npm install' }).categories).toEqual(E);
  });

  it('extracts command lines from the shapes the CLIs use', () => {
    expect(shellCommand({ command: 'ls' })).toBe('ls');
    expect(shellCommand({ cmd: 'pwd' })).toBe('pwd');
    expect(shellCommand({ command: ['bash', '-lc', 'echo hi'] })).toBe('echo hi');
    expect(shellCommand({ command: ['git', 'status'] })).toBe('git status');
    expect(shellCommand({ command: "/bin/bash -lc 'echo hello > out.txt && ls'" })).toBe(
      'echo hello > out.txt && ls',
    );
    expect(shellCommand({ path: 'x' })).toBeUndefined();
    expect(commandWords('FOO=1 sudo /usr/bin/CURL x; cat y | grep z && (cd w)')).toEqual([
      'curl',
      'cat',
      'grep',
      'cd',
    ]);
  });
});

describe('classifyTool: reads of the agent configuration', () => {
  it.each([
    ['Read', { file_path: '/repo/CLAUDE.md' }],
    ['read_file', { absolute_path: '/repo/AGENTS.md' }],
    ['Glob', { pattern: '.claude/**/*.md' }],
    ['Grep', { pattern: 'x', path: '/home/u/.codex/config.toml' }],
    ['list_directory', { dir_path: '.gemini' }],
    ['Bash', { command: 'cat AGENTS.md' }],
    ['Bash', { command: 'cd repo && ls .claude/skills && cat .claude/skills/x/SKILL.md' }],
  ])('%s %j → agent', (name, input) => {
    expect(classifyTool(name, input)).toMatchObject({ categories: A, rule: 'agent-config' });
  });

  it('leaves writes and mixed commands touching those files in the environment', () => {
    expect(classifyTool('Write', { file_path: 'CLAUDE.md', content: 'x' }).categories).toEqual(E);
    expect(classifyTool('Bash', { command: 'cat AGENTS.md && npm test' }).categories).toEqual(E);
    expect(classifyTool('Read', { file_path: '/repo/src/claude.ts' }).categories).toEqual(E);
  });
});

describe('classifyTool: unknown tools', () => {
  it.each([
    ['fetch_page', S, 'heuristic:fetch'],
    ['getApiKey', S, 'heuristic:api'],
    ['create_pull_request', S, 'heuristic:request'],
    ['planner', A, 'heuristic:plan'],
    ['read_config', E, 'heuristic:read'],
    ['runTests', E, 'heuristic:run'],
    ['github__list_issues', S, 'mcp-name'],
  ])('%s is classified by its name', (name, categories, rule) => {
    expect(classifyTool(name, {})).toMatchObject({ categories, rule, unclassified: false });
  });

  it('uses the ACP kind the agent declared before guessing from the name', () => {
    expect(classifyTool('frob', {}, 'execute')).toMatchObject({
      categories: E,
      rule: 'declared-kind:execute',
    });
    expect(classifyTool('frob', {}, 'fetch').categories).toEqual(S);
    expect(classifyTool('frob', {}, 'think').categories).toEqual(A);
  });

  it('flags what no rule recognises instead of hiding it', () => {
    expect(classifyTool('frobnicate', {})).toEqual({
      categories: S,
      unclassified: true,
      rule: 'unknown-tool',
      toolKind: 'unknown',
    });
    expect(classifyTool('', {})).toMatchObject({ unclassified: true, rule: 'no-tool-name' });
  });
});

describe('classifyInteractions', () => {
  it('puts reasoning and errors in the agent category', () => {
    const list = classified([text('thinking aloud'), error('boom')]);
    expect(list.map((ix) => [ix.type, ix.categories, ix.classifiedBy])).toEqual([
      ['reasoning', A, 'reasoning'],
      ['error', A, 'agent-error'],
    ]);
  });
});
