// Agent adapters: one module per built-in agent, the `command` and `acp` generic adapters, custom
// module loading, and the auth pre-flight.
export type * from './types.js';
export { getAdapter, loadAdapters, isBuiltinAdapter, type AdapterSource } from './registry.js';
export { preflightAuth, resolveAuth, type AuthSubject } from './auth.js';
export { loadModuleAdapter, adapterProblems } from './module.js';
export { createCommandAdapter, type CommandAdapterOptions } from './command.js';
export { createAcpAdapter, runAcp, type AcpAdapterOptions, type AcpSpec } from './acp.js';
export { runCli, prepareAndRun, assemble, outcomeError, type CliSpec } from './base.js';
export { renderFlags, withDefaults } from './flags.js';
export { parserFor } from '../transcript/registry.js';
export { resolveBinary } from './binary.js';
export { claudeCodeAdapter } from './claude-code.js';
export { codexAdapter } from './codex.js';
export { geminiAdapter } from './gemini.js';
export { qwenCodeAdapter } from './qwen-code.js';
export { opencodeAdapter } from './opencode.js';
