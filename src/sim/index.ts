/** The model simulator: a local fake model provider that drives the real agent CLIs offline. */
export {
  startSimulator,
  SIM_API_KEY,
  type Simulator,
  type SimulatorOptions,
  type SimulatorClientOptions,
} from './server.js';
export { TapeEngine, SIDE_CALL_TEXT } from './engine.js';
export {
  loadTape,
  parseTape,
  defineTape,
  type Tape,
  type TapeTurn,
  type NeutralTool,
  type Fault,
  type JudgeEntry,
  type NextRule,
  type NextCondition,
} from './tape.js';
export { mapTool, TOOL_CANDIDATES, type MappedTool } from './tools.js';
export {
  clientSetup,
  AGENT_CLIS,
  type AgentCli,
  type ClientOptions,
  type ClientSetup,
  type ClientFile,
} from './clients.js';
export {
  CODECS,
  matchRoute,
  SUPPORTED_PATHS,
  type ProviderCodec,
  type WireFrame,
  type Route,
} from './codecs/index.js';
export type * from './types.js';
