// Config and scenario loading. Everything else in AXIS enters this folder through here.
export { defineConfig, defineScenario } from './define.js';
export { loadConfig, loadConfigIssues, knownAgentNames, type LoadConfigOptions } from './load.js';
export { discoverScenarios } from './scenario-collect.js';
export { findConfig, CONFIG_NAMES } from './find.js';
export {
  BUILTIN_AGENTS,
  BUILTIN_AGENT_NAMES,
  agentCapabilities,
  agentIdentity,
  type AgentCapabilities,
} from './agents.js';
export { compileRegex } from './schema-helpers.js';
export { SCHEMA_URLS, EVEN_RUNS_REASON } from './schema.js';
export type {
  AxisConfig,
  ScenarioConfig,
  InlineScenarioConfig,
  ScenarioVariantConfig,
  AgentEntry,
  AgentConfig,
  SettingsConfig,
  ProfileConfig,
  JudgeConfig,
  McpServerConfig,
  LifecycleActionConfig,
  CheckConfig,
  LimitsConfig,
} from './schema.js';
export type * from './types.js';
