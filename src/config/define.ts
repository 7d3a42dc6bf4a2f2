import type { AxisConfig, ScenarioConfig } from './schema.js';

/** Typed identity helper for `axis.config.ts`: `export default defineConfig({ ... })`. */
export function defineConfig<T extends AxisConfig | (() => AxisConfig | Promise<AxisConfig>)>(config: T): T {
  return config;
}

/** Typed identity helper for scenario modules: `export default defineScenario({ ... })`. */
export function defineScenario<T extends ScenarioConfig | (() => ScenarioConfig | Promise<ScenarioConfig>)>(
  scenario: T,
): T {
  return scenario;
}
