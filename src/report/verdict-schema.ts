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
  baseline: z.strictObject({ name: z.string(), tolerance: z.number().min(0) }).nullable(),
  pairs: z.array(
    z.strictObject({ scenarioKey: z.string(), agent: z.string(), failures: z.array(gateFailure) }),
  ),
  incomplete: z.string().optional(),
  unscored: z.string().optional(),
});
