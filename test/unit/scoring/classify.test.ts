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
      rule: `network-command:${client}`,
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

describe('classification by provenance before names', () => {
  const rule = (name: string, input: unknown = {}, ctx = {}) => {
    const c = classifyTool(name, input, undefined, ctx);
    return [c.categories.join('+'), c.rule];
  };

  it('routes outages through MCP tools whose names look local to the service dimension', () => {
    // The example: opencode names MCP tools <server>_<tool>; name heuristics said env and agent.
    const ctx = { adapter: 'opencode', mcpServers: ['linear', 'github', 'billing'] };
    expect(rule('linear_create_task', {}, ctx)).toEqual(['service', 'mcp-server:linear']);
    expect(rule('github_list_issues', {}, ctx)).toEqual(['service', 'mcp-server:github']);
    expect(rule('mcp__billing__update_plan_subscription', {}, ctx)).toEqual([
      'service',
      'mcp-server:billing',
    ]);
    // Without a server prefix, a tool that is not one of opencode's own is still a service.
    expect(rule('update_plan_subscription', {}, ctx)).toEqual(['service', 'not-built-in:opencode']);
    // Without any context the old heuristics would call these environment and agent.
    expect(rule('github_list_issues')).toEqual(['environment', 'heuristic:list']);
    expect(rule('linear_create_task')).toEqual(['agent', 'heuristic:task']);
  });

  it('matches sanitised server names and the longest server first', () => {
    const ctx = { mcpServers: ['my docs', 'git', 'github'] };
    expect(rule('my_docs_search', {}, ctx)).toEqual(['service', 'mcp-server:my_docs']);
    expect(rule('github_list_issues', {}, ctx)).toEqual(['service', 'mcp-server:github']);
    expect(rule('gitlog', {}, ctx)).not.toEqual(['service', 'mcp-server:git']);
  });

  it("attributes each CLI's spelling of an MCP tool to its server (Gemini: mcp_<server>_<tool>)", () => {
    const ctx = { mcpServers: ['docs'] };
    for (const name of ['mcp__docs__echo', 'mcp_docs_echo', 'docs_echo', 'docs__echo'])
      expect(rule(name, {}, ctx), name).toEqual(['service', 'mcp-server:docs']);
    expect(rule('mcp_docsearch', {}, ctx)).not.toEqual(['service', 'mcp-server:docs']);
  });

  it("keeps each CLI's own tools in their categories and makes any other tool a service", () => {
    expect(rule('Bash', { command: 'ls' }, { adapter: 'claude-code' })).toEqual([
      'environment',
      'table:bash',
    ]);
    expect(rule('read_file', {}, { adapter: 'gemini' })).toEqual(['environment', 'table:read_file']);
    // Gemini and Qwen name MCP tools by their bare name.
    expect(rule('read_file', {}, { adapter: 'codex' })).toEqual(['service', 'not-built-in:codex']);
    expect(rule('search_docs', {}, { adapter: 'gemini' })).toEqual(['service', 'not-built-in:gemini']);
    // A custom command agent: no built-in list, the name heuristics still apply.
    expect(rule('search_docs', {}, { adapter: 'command' })).toEqual(['environment', 'heuristic:search']);
  });

  it('counts every tool the pinned CLIs really offer as built-in', async () => {
    const { readFileSync } = await import('node:fs');
    const offered = JSON.parse(
      readFileSync(new URL('../sim/fixtures/offered-tools.json', import.meta.url), 'utf8'),
    ) as Record<string, Array<{ name: string }>>;
    const adapters: Record<string, string> = {
      claude: 'claude-code',
      codex: 'codex',
      gemini: 'gemini',
      qwen: 'qwen-code',
      opencode: 'opencode',
    };
    const notBuiltIn: string[] = [];
    for (const [cli, adapter] of Object.entries(adapters))
      for (const t of offered[cli]!) {
        const c = classifyTool(t.name, {}, undefined, { adapter });
        if (c.rule.startsWith('not-built-in')) notBuiltIn.push(`${cli}:${t.name}`);
      }
    expect(notBuiltIn).toEqual([]);
  });

  it('lets the config override with glob rules, before anything else', () => {
    const ctx = { adapter: 'claude-code', rules: { 'acme_*': 'service', Bash: 'agent' } as const };
    expect(rule('acme_deploy', {}, ctx)).toEqual(['service', 'config:acme_*']);
    expect(rule('ACME_Deploy', {}, ctx)).toEqual(['service', 'config:acme_*']);
    expect(rule('Bash', { command: 'ls' }, ctx)).toEqual(['agent', 'config:Bash']);
  });

  it.each([
    ['curl -s https://api.example.com', 'network-command:curl'],
    ['wget -q https://x', 'network-command:wget'],
    ['cd app && git push origin main', 'network-command:git push'],
    ['git -C repo fetch --all', 'network-command:git fetch'],
    ['git clone https://github.com/a/b', 'network-command:git clone'],
    ['gh issue list', 'network-command:gh'],
    ['kubectl get pods', 'network-command:kubectl'],
    ['docker pull node:20', 'network-command:docker pull'],
    ['aws s3 ls', 'network-command:aws'],
    ['netlify deploy --prod', 'network-command:netlify'],
    ['flyctl deploy', 'network-command:flyctl'],
    ['ssh deploy@host uptime', 'network-command:ssh'],
    ['scp a.txt host:/tmp', 'network-command:scp'],
    ['psql -h db.example.com -c "select 1"', 'network-command:psql'],
    ['psql postgres://u@db/x -c "select 1"', 'network-command:psql'],
    ['redis-cli -h cache ping', 'network-command:redis-cli'],
    ['mysql --host=db -e "show tables"', 'network-command:mysql'],
    [
      `python3 -c "import requests; print(requests.get('https://x').status_code)"`,
      'network-command:python3 http client',
    ],
    [`node -e "fetch('https://x').then(r => console.log(r.status))"`, 'network-command:node http client'],
  ])('%s reaches a network service', (command, expected) => {
    expect(rule('Bash', { command })).toEqual(['environment+service', expected]);
  });

  it.each([
    'git status',
    'git commit -m "push the fix"',
    'docker build .',
    'psql -f schema.sql',
    'python3 -c "print(1)"',
    "node -e \"console.log(require('fs').readdirSync('.'))\"",
    'npm install',
    'rsync -a src/ dst/',
  ])('%s stays in the environment', (command) => {
    expect(rule('Bash', { command })[0]).toBe('environment');
  });
});
