/**
 * `network` at its three levels: the settings', a scenario's and a variant's own. The most specific mode
 * wins; the ports of every level apply (docs/configuration.md#settings).
 */
import type { ScenarioConfig } from './schema.js';
import type { NetworkPolicy } from './types.js';

type NetworkField = ScenarioConfig['network'];

/** `"loopback"` → `{ mode: "loopback", ports: [] }`; undefined stays undefined. */
export function resolveNetwork(network: NetworkField): NetworkPolicy | undefined {
  if (network === undefined) return undefined;
  if (typeof network === 'string') return { mode: network, ports: [] };
  return { mode: network.mode, ports: [...new Set(network.ports ?? [])] };
}

/** `inner` (the more specific level) over `outer`: its mode wins; the ports of both are allowed. */
export function networkOver(outer: NetworkPolicy, inner: NetworkPolicy | undefined): NetworkPolicy {
  if (!inner) return outer;
  return { mode: inner.mode, ports: [...new Set([...outer.ports, ...inner.ports])] };
}

/** A variant's `network` over its scenario's, as a field of the variant's merged fields. */
export function variantNetwork(scenario: NetworkField, variant: NetworkField): NetworkField {
  const outer = resolveNetwork(scenario);
  const inner = resolveNetwork(variant);
  return outer ? networkOver(outer, inner) : inner;
}
