/**
 * Provider variables: which host variables adapters read (API keys, base URLs), and how a provider
 * root URL maps onto them. The simulator is wired through exactly these variables.
 */

export const ANTHROPIC_ENV = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL'] as const;
export const OPENAI_ENV = ['OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const;
export const GEMINI_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL'] as const;

/** Every provider variable, for agents AXIS knows nothing about (`command`, `acp`). */
export const PROVIDER_BASE_ENV = [...ANTHROPIC_ENV, ...OPENAI_ENV, ...GEMINI_ENV] as const;

/** Root URL without a trailing slash or `/v1` (what the simulator calls its base URL). */
export function providerRoot(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** OpenAI-style base URL: the root plus `/v1` (the convention OPENAI_BASE_URL follows). */
export function openaiBase(root: string): string {
  return `${providerRoot(root)}/v1`;
}

export function anthropicEnvFor(baseUrl: string, apiKey: string): Record<string, string> {
  return { ANTHROPIC_BASE_URL: providerRoot(baseUrl), ANTHROPIC_API_KEY: apiKey };
}

export function openaiEnvFor(baseUrl: string, apiKey: string): Record<string, string> {
  return { OPENAI_BASE_URL: openaiBase(baseUrl), OPENAI_API_KEY: apiKey };
}

export function geminiEnvFor(baseUrl: string, apiKey: string): Record<string, string> {
  return { GOOGLE_GEMINI_BASE_URL: providerRoot(baseUrl), GEMINI_API_KEY: apiKey };
}

/** All three provider families at once. */
export function standardProviderEnv(baseUrl: string, apiKey: string): Record<string, string> {
  return {
    ...anthropicEnvFor(baseUrl, apiKey),
    ...openaiEnvFor(baseUrl, apiKey),
    ...geminiEnvFor(baseUrl, apiKey),
  };
}
