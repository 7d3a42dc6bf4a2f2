/** The shape every deterministic signal module follows (one file per signal, id = file name). */
import type { AuditField, ClassifiedInteraction, Pattern } from '../types.js';

export interface SignalMeta {
  /** Kebab-case noun, equal to the file name. */
  id: string;
  /** Passing-state title. */
  title: string;
  /** Title shown when the signal found a problem. */
  failureTitle: string;
  description: string;
  /** Audit field the values feed; null for signals that only report patterns. */
  field: AuditField | null;
}

export interface SignalValue {
  interactionId: number;
  /** 0..1, or null when the signal does not measure this interaction. */
  value: number | null;
  /** True when the evidence settles the value; false asks a judge (the value is then only a best guess). */
  unambiguous: boolean;
  evidence: string;
}

export interface SignalOutput {
  values: SignalValue[];
  patterns: Pattern[];
}

export interface Signal {
  meta: SignalMeta;
  evaluate(interactions: readonly ClassifiedInteraction[]): SignalOutput;
}
