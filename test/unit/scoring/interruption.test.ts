import { describe, expect, it } from 'vitest';
import { composeScore, HAND_BACK_CAP, scoreGoal } from '../../../src/scoring/composite.js';
import { scoreDimensions } from '../../../src/scoring/dimensions.js';
import { detectInterruption, interruptionNote, taskNeedsAction } from '../../../src/scoring/interruption.js';
import { evaluateSignals } from '../../../src/scoring/signals/index.js';
import type { Interruption } from '../../../src/scoring/types.js';
import { call, classified, result, text } from './helpers.js';

const edit = [call('e', 'Edit', { file_path: 'a.ts' }, 0), result('e', 'ok', { at: 10 })];

describe('human-interruption detection', () => {
  it('flags an ask-the-user tool with its question, blocking when nothing was done after', () => {
    const list = classified([
      text('I need to know which file.'),
      call('q', 'AskUserQuestion', { questions: [{ question: 'Which file do you want me to edit?' }] }, 0),
      result('q', 'no answer in non-interactive mode', { at: 5, isError: true }),
    ]);
    expect(detectInterruption({ interactions: list, finalAnswer: null, needsAction: true })).toEqual({
      kind: 'ask_tool',
      blocking: true,
      evidence: 'AskUserQuestion called: "Which file do you want me to edit?"',
      interactionIds: [2],
    });
    for (const name of ['ask_user_question', 'ask_user', 'request_user_input'])
      expect(
        detectInterruption({
          interactions: classified([call('q', name, { question: 'Proceed?' }), result('q', '')]),
          finalAnswer: null,
          needsAction: true,
        })?.kind,
      ).toBe('ask_tool');
  });

  it('is not blocking when the agent went on and did the work', () => {
    const list = classified([call('q', 'AskUserQuestion', { question: 'Which?' }), result('q', ''), ...edit]);
    expect(detectInterruption({ interactions: list, finalAnswer: 'Done.', needsAction: true })).toMatchObject(
      {
        kind: 'ask_tool',
        blocking: false,
      },
    );
  });

  it.each([
    ['Which file do you want me to edit?', 'question'],
    ['I looked around. Should I go ahead and delete the old config?', 'permission'],
    ['Would you like me to create the file?', 'permission'],
    ['Please confirm the target branch before I proceed.', 'confirmation'],
    ['Could you tell me the API endpoint to use?', 'question'],
    ['Please provide the database URL.', 'question'],
  ])('flags a final answer that hands the task back: %s', (answer, kind) => {
    const list = classified([call('r', 'Read', { file_path: 'a' }), result('r', 'x')]);
    expect(detectInterruption({ interactions: list, finalAnswer: answer, needsAction: true })).toMatchObject({
      kind,
      blocking: true,
      evidence: expect.stringContaining('the final answer asks: "'),
    });
  });

  it.each([
    'I updated a.ts. Would you like me to also add tests?',
    'Done: a.ts now exports the helper. Let me know if you need anything else.',
    'Fixed the bug in a.ts; all tests pass.',
  ])('leaves a finished run that offers more work alone: %s', (answer) => {
    expect(
      detectInterruption({ interactions: classified(edit), finalAnswer: answer, needsAction: true }),
    ).toBeNull();
  });

  it('flags doing nothing on a task that asks for action, not on a question', () => {
    const none = classified([text('Done.')]);
    expect(detectInterruption({ interactions: none, finalAnswer: 'Done.', needsAction: true })).toEqual({
      kind: 'no_action',
      blocking: true,
      evidence: 'no tool call: the task asks for action, but the agent only answered "Done."',
      interactionIds: [],
    });
    expect(detectInterruption({ interactions: none, finalAnswer: '4', needsAction: false })).toBeNull();
    expect(taskNeedsAction('Create notes.md with a summary of the repo')).toBe(true);
    expect(taskNeedsAction('Say done.')).toBe(false);
    expect(taskNeedsAction('Explain what a monad is.')).toBe(false);
    expect(taskNeedsAction('Say hi', [{ kind: 'file_exists' }])).toBe(true);
    expect(taskNeedsAction('Say hi', [{ kind: 'result_matches' }])).toBe(false);
  });
});

describe('the hand-back cap', () => {
  const goal = scoreGoal([{ check: 'did it', weight: 1, score: 10, rationale: 'lenient', kind: 'judge' }]);

  it('caps goal achievement and the composite at 10 whatever the judge said, and says why', () => {
    const list = classified([text('Which file do you want me to edit?')]);
    const dims = scoreDimensions({ interactions: list, audits: evaluateSignals(list).audits });
    // No tool call: no decision to audit, so the agent dimension is n/a (not one reasoning turn at full speed).
    expect(dims.agent.notApplicable).toBe(true);
    const interruption = detectInterruption({
      interactions: list,
      finalAnswer: 'Which file do you want me to edit?',
      needsAction: true,
    });
    const s = composeScore({ goal, ...dims, interruption });
    expect(s).toMatchObject({
      status: 'scored',
      axisScore: HAND_BACK_CAP,
      goalAchievement: { score: HAND_BACK_CAP, uncappedScore: 100 },
      cap: { score: 10, uncapped: 100 },
      interruption: { kind: 'question', blocking: true },
    });
    expect(s.cap!.reason).toBe(
      'the agent handed the task back (question): the final answer asks: "Which file do you want me to edit?"',
    );
  });

  it('says "capped" only when the cap lowered the score', () => {
    const interruption = {
      kind: 'no_action',
      blocking: true,
      evidence: 'no tool call',
      interactionIds: [],
    } satisfies Interruption;
    const note = (uncapped: number) => interruptionNote({ interruption, cap: { score: 10, uncapped } });
    expect(note(55)).toBe('did nothing on a task that asks for action (capped at 10 from 55): no tool call');
    expect(note(0)).toBe('did nothing on a task that asks for action: no tool call');
    expect(note(10)).toBe('did nothing on a task that asks for action: no tool call');
  });

  it('does not cap a flagged but non-blocking interruption', () => {
    const s = composeScore({
      goal,
      ...scoreDimensions({ interactions: [], audits: [] }),
      interruption: { kind: 'ask_tool', blocking: false, evidence: 'x', interactionIds: [1] },
    });
    expect(s.axisScore).toBe(100);
    expect(s.cap).toBeUndefined();
    expect(s.interruption).toMatchObject({ blocking: false });
  });
});
