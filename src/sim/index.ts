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
export { deferredTools, mapTool, TOOL_CANDIDATES, type MappedTool } from './tools.js';
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
export { startRecorder, type Recorder, type RecorderOptions } from './record.js';
export type { RecordExchange } from './record-exchange.js';
export type { RecordedAs } from './record-builder.js';
export {
  startReplay,
  Replayer,
  divergences,
  type ReplayOptions,
  type ReplayServerOptions,
  type Divergence,
  type DivergenceKind,
} from './replay.js';
export { normalizeResult } from './replay-normalize.js';
export {
  loadRecording,
  parseRecording,
  RECORDING_FORMAT,
  type Recording,
  type RecordedTurn,
  type RecordedSide,
  type RecordedResult,
} from './recording.js';
