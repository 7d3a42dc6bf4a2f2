/**
 * Human-interruption detection (docs/scoring.md#human-interruptions): a run that hands the task back to
 * a person — it calls an ask-the-user tool, its final answer asks a question or for permission or
 * confirmation, or it does nothing at all on a task that asks for action. In CI nobody answers, so a run
 * that ends on such a hand-off has not done the task, whatever a judge says. Pure: data in, data out.
 */
import { commandWords, shellCommand } from './classify.js';
import { READ_COMMANDS } from './tool-table.js';
import type { ClassifiedInteraction, Interruption, ToolKind } from './types.js';

/** Kinds of call that change nothing: a run made only of these has not acted on the task. */
const LOOK_ONLY: ReadonlySet<ToolKind | undefined> = new Set<ToolKind | undefined>([
  'read',
  'search',
  'discovery',
  'plan',
  'ask',
  'skill',
  'memory',
]);
const READ_SET = new Set(READ_COMMANDS);

/** Sentences that ask the user for a decision, information, permission or confirmation. */
const ASKS: ReadonlyArray<{ kind: Interruption['kind']; re: RegExp }> = [
  {
    kind: 'question',
    re: /\b(?:which|what|where|how|who|when)\b[^.?!]*\?|\b(?:could|can|would|will) you (?:please )?(?:tell|provide|share|specify|clarify|give|send|point|let me know)\b|\bplease (?:provide|specify|clarify|tell me|let me know|share)\b|\blet me know (?:which|what|where|how|who|when)\b|\bi need (?:more (?:information|details|context)|to know|you to)\b/i,
  },
  {
    kind: 'permission',
    re: /\b(?:may i|can i|shall i|should i|do you want me to|would you like me to|is it (?:ok|okay|alright)(?: if| to| for me to)?|(?:ok|okay) (?:if|to) (?:i|me)|do i have (?:your )?permission|(?:need|require|await(?:ing)?|waiting for) your (?:permission|approval|go-ahead|ok|okay|consent))\b/i,
  },
  {
    kind: 'confirmation',
    re: /\b(?:please confirm|can you confirm|could you confirm|confirm (?:that|whether|if|before)|let me know (?:if|whether) (?:i should|you want me to|to proceed|that's ok|this is ok)|before i (?:proceed|continue|go ahead|make|start|run|delete|change)|(?:await(?:ing)?|waiting for) your (?:confirmation|reply|answer|input|response))\b/i,
  },
];
/** Offers of optional further work after the task was done: not a hand-off. */
const OFFER = /\b(?:also|further|anything else|additionally|as well|next steps?)\b/i;

export interface InterruptionInput {
  interactions: readonly ClassifiedInteraction[];
  finalAnswer: string | null;
  /** The task asks for action (taskNeedsAction); a run with no tool call then did nothing. */
  needsAction: boolean;
}

export function detectInterruption(input: InterruptionInput): Interruption | null {
  const { interactions } = input;
  const tools = interactions.filter((ix) => ix.type === 'tool');
  const acted = (from: number) =>
    tools.some((ix) => ix.id > from && ix.outcome === 'ok' && changesSomething(ix));

  const asked = tools.filter((ix) => ix.toolKind === 'ask');
  if (asked.length > 0) {
    const last = asked.at(-1)!;
    return {
      kind: 'ask_tool',
      blocking: !acted(last.id),
      evidence: `${last.tool!.name} called${questionText(last.tool!.input)}`,
      interactionIds: asked.map((ix) => ix.id),
    };
  }

  const ask = finalQuestion(input.finalAnswer);
  if (ask && !(acted(0) && OFFER.test(ask.sentence)))
    return {
      kind: ask.kind,
      blocking: !acted(0),
      evidence: `the final answer asks: "${ask.sentence}"`,
      interactionIds: [],
    };

  if (tools.length === 0 && input.needsAction)
    return {
      kind: 'no_action',
      blocking: true,
      evidence:
        'no tool call: the task asks for action, but the agent only answered' +
        (input.finalAnswer ? ` "${clip(input.finalAnswer.trim(), 120)}"` : ' (no final answer)'),
      interactionIds: [],
    };
  return null;
}

/** The last sentence of the final answer's closing lines that asks the user for something. */
function finalQuestion(answer: string | null): { kind: Interruption['kind']; sentence: string } | null {
  if (!answer) return null;
  const tail = answer.trim().slice(-600);
  const sentences = tail
    .split(/(?<=[.?!])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .slice(-3);
  for (const sentence of sentences.reverse())
    for (const { kind, re } of ASKS)
      if (
        re.test(sentence) &&
        (sentence.includes('?') || kind !== 'question' || /\bplease\b|\bneed\b/i.test(sentence))
      )
        return { kind, sentence: clip(sentence, 200) };
  return null;
}

/** A call that can change the workspace or the world: writes, edits, shell commands other than reads, services. */
function changesSomething(ix: ClassifiedInteraction): boolean {
  if (LOOK_ONLY.has(ix.toolKind)) return false;
  if (ix.toolKind === 'shell') {
    const command = shellCommand(ix.tool?.input);
    if (command === undefined) return true;
    if (/^\s*git\s+(?:status|branch|log|diff|show|remote -v)\b[^;&|>]*$/.test(command)) return false;
    const words = commandWords(command);
    return words.length === 0 || !words.every((w) => READ_SET.has(w));
  }
  return true;
}

function questionText(input: unknown): string {
  const text = JSON.stringify(input ?? {});
  const m = /"(?:question|prompt|message|text|header)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  return m ? `: "${clip(m[1]!.replace(/\\(.)/g, '$1'), 160)}"` : '';
}

function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/** Imperative verbs that ask for a change or an operation, not an answer. */
const ACTION_VERBS =
  /\b(?:create|write|add|fix|edit|update|change|modify|delete|remove|rename|move|copy|install|deploy|run|build|implement|refactor|make|generate|set up|setup|configure|commit|push|publish|migrate|save|upload|send|post|open|file|close|merge|apply|patch|replace|insert|append|convert|format|lint|test|execute|call|fetch|download|list|read|use|check|start|stop|restart|enable|disable|register|sign up|book|order|schedule|invite|archive|tag|release)\b/i;

/**
 * Whether a task needs the agent to act (a tool call), not just answer: its prompt asks for an operation,
 * or the scenario checks the workspace (a file, a command, an HTTP endpoint).
 */
export function taskNeedsAction(prompt: string, checks: ReadonlyArray<{ kind: string }> = []): boolean {
  if (checks.some((c) => c.kind !== 'result_matches')) return true;
  return ACTION_VERBS.test(prompt);
}

/**
 * One line for people about a hand-back, the same in the terminal, `axis reports` and report.html:
 * `handed back to the user (capped at 10 from 96): the final answer asks: "Which file…?"`.
 */
export function interruptionNote(
  score: { interruption?: Interruption | null; cap?: { score: number; uncapped: number } },
  max = 200,
): string | null {
  const i = score.interruption;
  if (!i) return null;
  const what =
    i.kind === 'no_action' ? 'did nothing on a task that asks for action' : 'handed back to the user';
  // A run that scored at or below the cap anyway was not lowered by it: "capped at 10 from 0" would mislead.
  const cap =
    score.cap && score.cap.uncapped > score.cap.score
      ? ` (capped at ${score.cap.score} from ${score.cap.uncapped})`
      : i.blocking
        ? ''
        : ' (then went on; not capped)';
  return clip(`${what}${cap}: ${i.evidence}`, max);
}
