/**
 * Generic values for a JSON Schema: answers structured side calls (Gemini's router) and fills required
 * tool arguments a tape does not mention (e.g. a `description`). Deterministic; handles Gemini's
 * upper-case type names.
 */
import type { JsonSchema } from './types.js';

/** Property names whose generic value would change what the agent does next. */
const KNOWN_VALUES: Record<string, unknown> = {
  // Gemini-style "next speaker" checks: answering "model" would make the agent talk to itself.
  next_speaker: 'user',
};

function typeOf(schema: JsonSchema): string | undefined {
  const t = schema.type;
  const first = Array.isArray(t) ? t.find((x) => x !== 'null') : t;
  return typeof first === 'string' ? first.toLowerCase() : undefined;
}

export function fillSchema(schema: unknown, name = 'value', depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 8) return name;
  const s = schema as JsonSchema;
  if (name in KNOWN_VALUES) return KNOWN_VALUES[name];
  if ('const' in s) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length) return fillSchema(options[0], name, depth + 1);
  }
  switch (typeOf(s) ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, unknown>;
      for (const [key, sub] of Object.entries(props)) out[key] = fillSchema(sub, key, depth + 1);
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      return Array.from({ length: Math.max(min, 1) }, () => fillSchema(s.items, name, depth + 1));
    }
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return `simulated ${name}`;
  }
}

/** Fills only the required properties of an object schema that `args` lacks. */
export function fillRequired(
  schema: JsonSchema | undefined,
  args: Record<string, unknown>,
  hints: Record<string, string> = {},
) {
  const out = { ...args };
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  const props = (schema?.properties ?? {}) as Record<string, unknown>;
  for (const key of required) {
    if (out[key] !== undefined) continue;
    out[key] = key in hints ? hints[key] : fillSchema(props[key], key);
  }
  return out;
}
