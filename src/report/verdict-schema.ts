/** report.json's `verdict` (src/report/verdict.ts) as a zod schema, for schema.ts. */
import * as z from 'zod';

const gateFailure = z.strictObject({
  kind: z.enum(['failed', 'threshold', 'regression', 'missing']),
  metric: z.string().optional(),
  value: z.number().optional(),
  limit: z.number().optional(),
  message: z.string(),
});

export const verdictSchema = z.strictObject({
  pass: z.boolean(),
  // Optional: verdicts stored before AXIS recorded the minimums it applied still load.
  thresholds: z
    .strictObject({
      source: z.string(),
      metrics: z.array(
        z.enum(['axis_score', 'goal_achievement', 'environment', 'service', 'agent', 'reliability']),
      ),
    })
    .nullable()
    .optional(),
  baseline: z.strictObject({ name: z.string(), tolerance: z.number().min(0) }).nullable(),
  pairs: z.array(
    z.strictObject({ scenarioKey: z.string(), agent: z.string(), failures: z.array(gateFailure) }),
  ),
  incomplete: z.string().optional(),
  unscored: z.string().optional(),
});
