/**
 * Known tool names of the supported agent CLIs → category and kind. Keys are lower-case; lookups are
 * case-insensitive. docs/scoring.md#classification lists the same table (a unit test keeps them in step).
 */
import type { Category, ToolKind } from './types.js';

export interface ToolRule {
  category: Category;
  kind: ToolKind;
  /** Which CLIs use the name (documentation only). */
  agents: string;
}

const env = (kind: ToolKind, agents: string): ToolRule => ({ category: 'environment', kind, agents });
const svc = (kind: ToolKind, agents: string): ToolRule => ({ category: 'service', kind, agents });
const agt = (kind: ToolKind, agents: string): ToolRule => ({ category: 'agent', kind, agents });

export const TOOL_TABLE: Readonly<Record<string, ToolRule>> = {
  // environment: shell
  bash: env('shell', 'Claude Code, opencode'),
  bashoutput: env('shell', 'Claude Code'),
  killshell: env('shell', 'Claude Code'),
  killbash: env('shell', 'Claude Code'),
  shell: env('shell', 'Codex'),
  local_shell: env('shell', 'Codex'),
  exec_command: env('shell', 'Codex'),
  command_execution: env('shell', 'Codex'),
  write_stdin: env('shell', 'Codex'),
  run_shell_command: env('shell', 'Gemini, Qwen'),
  list_background_processes: env('shell', 'Gemini'),
  read_background_output: env('shell', 'Gemini'),
  monitor: env('shell', 'Qwen'),
  enterworktree: env('shell', 'Claude Code'),
  exitworktree: env('shell', 'Claude Code'),
  // environment: read
  read: env('read', 'Claude Code, opencode'),
  read_file: env('read', 'Gemini, Qwen'),
  read_many_files: env('read', 'Gemini, Qwen'),
  notebookread: env('read', 'Claude Code'),
  view_image: env('read', 'Codex'),
  ls: env('read', 'Claude Code'),
  list: env('read', 'opencode'),
  list_directory: env('read', 'Gemini, Qwen'),
  // environment: search
  glob: env('search', 'Claude Code, Gemini, Qwen, opencode'),
  grep: env('search', 'Claude Code, opencode'),
  grep_search: env('search', 'Gemini, Qwen'),
  search_file_content: env('search', 'Gemini, Qwen'),
  // environment: write
  write: env('write', 'Claude Code, opencode'),
  edit: env('write', 'Claude Code, Qwen, opencode'),
  multiedit: env('write', 'Claude Code, opencode'),
  notebookedit: env('write', 'Claude Code'),
  write_file: env('write', 'Gemini, Qwen'),
  replace: env('write', 'Gemini'),
  apply_patch: env('write', 'Codex'),
  file_change: env('write', 'Codex'),
  patch: env('write', 'opencode'),
  // service: web and HTTP
  webfetch: svc('fetch', 'Claude Code, opencode'),
  websearch: svc('fetch', 'Claude Code, opencode'),
  web_fetch: svc('fetch', 'Gemini, Qwen'),
  web_search: svc('fetch', 'Codex, Qwen'),
  google_web_search: svc('fetch', 'Gemini'),
  codesearch: svc('fetch', 'opencode'),
  fetch: svc('fetch', 'generic'),
  http_request: svc('fetch', 'generic'),
  // service: MCP
  mcp_tool_call: svc('mcp', 'Codex'),
  mcp: svc('mcp', 'generic'),
  listmcpresourcestool: svc('mcp', 'Claude Code'),
  readmcpresourcetool: svc('mcp', 'Claude Code'),
  list_mcp_resources: svc('mcp', 'Codex'),
  read_mcp_resource: svc('mcp', 'Codex'),
  // agent: planning and bookkeeping
  todowrite: agt('plan', 'Claude Code, opencode'),
  todoread: agt('plan', 'Claude Code, opencode'),
  todo_write: agt('plan', 'Qwen'),
  todo_read: agt('plan', 'Qwen'),
  write_todos: agt('plan', 'Gemini'),
  update_plan: agt('plan', 'Codex'),
  todo_list: agt('plan', 'Codex'),
  enterplanmode: agt('plan', 'Claude Code'),
  exitplanmode: agt('plan', 'Claude Code'),
  enter_plan_mode: agt('plan', 'Gemini, Qwen'),
  exit_plan_mode: agt('plan', 'Gemini, Qwen'),
  get_goal: agt('plan', 'Codex'),
  create_goal: agt('plan', 'Codex'),
  update_goal: agt('plan', 'Codex'),
  update_topic: agt('plan', 'Gemini'),
  reportfindings: agt('plan', 'Claude Code'),
  croncreate: agt('plan', 'Claude Code'),
  crondelete: agt('plan', 'Claude Code'),
  cronlist: agt('plan', 'Claude Code'),
  schedulewakeup: agt('plan', 'Claude Code'),
  // agent: sub-agents and delegation
  task: agt('delegate', 'Claude Code, Qwen, opencode'),
  agent: agt('delegate', 'Claude Code, Qwen'),
  taskcreate: agt('delegate', 'Claude Code'),
  taskupdate: agt('delegate', 'Claude Code'),
  taskget: agt('delegate', 'Claude Code'),
  tasklist: agt('delegate', 'Claude Code'),
  taskoutput: agt('delegate', 'Claude Code'),
  taskstop: agt('delegate', 'Claude Code'),
  task_stop: agt('delegate', 'Qwen'),
  sendmessage: agt('delegate', 'Claude Code'),
  send_message: agt('delegate', 'Qwen'),
  workflow: agt('delegate', 'Claude Code'),
  invoke_agent: agt('delegate', 'Gemini'),
  codebase_investigator: agt('delegate', 'Gemini'),
  multi_agent_v1: agt('delegate', 'Codex'),
  // agent: memory, skills, questions, tool discovery
  save_memory: agt('memory', 'Gemini, Qwen'),
  skill: agt('skill', 'Claude Code, Qwen, opencode'),
  activate_skill: agt('skill', 'Gemini'),
  slashcommand: agt('skill', 'Claude Code'),
  askuserquestion: agt('ask', 'Claude Code'),
  ask_user_question: agt('ask', 'Qwen'),
  ask_user: agt('ask', 'Gemini'),
  request_user_input: agt('ask', 'Codex'),
  toolsearch: agt('discovery', 'Claude Code'),
  tool_search: agt('discovery', 'Qwen'),
  list_tools: agt('discovery', 'generic'),
  listtoolsets: agt('discovery', 'generic'),
  get_internal_docs: agt('discovery', 'Gemini'),
};

/** Command words (first word of a shell command) that always talk to an external service. */
export const HTTP_CLIENTS: readonly string[] = [
  'curl',
  'wget',
  'http',
  'https',
  'httpie',
  'xh',
  'gh',
  'aws',
  'gcloud',
  'az',
  'netlify',
  'vercel',
  'wrangler',
  'stripe',
  'flyctl',
  'heroku',
  'supabase',
  'firebase',
  'doctl',
  'kubectl',
  'helm',
  'glab',
  'fly',
  'gsutil',
];

/** Shell command words that only read; a command made only of these may count as an agent-config read. */
export const READ_COMMANDS: readonly string[] = [
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'ls',
  'find',
  'grep',
  'rg',
  'tree',
  'wc',
  'stat',
  'file',
  'cd',
  'pwd',
  'bat',
];

/** Agent CLIs whose own tools the table knows, by adapter name → the label in the `agents` column. */
export const CLI_LABELS: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini',
  'qwen-code': 'Qwen',
  opencode: 'opencode',
};

const builtinCache = new Map<string, ReadonlySet<string>>();

/** Lower-case names of an agent CLI's own built-in tools; undefined for an adapter the table does not know. */
export function builtinTools(adapter: string): ReadonlySet<string> | undefined {
  const label = CLI_LABELS[adapter];
  if (!label) return undefined;
  let set = builtinCache.get(label);
  if (!set) {
    set = new Set(
      Object.entries(TOOL_TABLE)
        .filter(([, rule]) => rule.agents.split(', ').includes(label))
        .map(([name]) => name),
    );
    builtinCache.set(label, set);
  }
  return set;
}
