/**
 * Values that command definitions show in `--help` (defaults, choices) but
 * whose sources live in modules too heavy to load at every start-up (zod
 * schemas): copied here so that `ragjudge --version` or `ragjudge retrieval
 * --help` loads none of them. test/cli/commands/help-values.test.ts checks
 * every one against its source, so a change there fails the tests.
 */

/** BATCH_LIMITS in judge/batch/format.ts: the OpenAI Batch API's per-file limits. */
export const BATCH_LIMITS_SHOWN = { maxRequests: 50_000, maxBytes: 200_000_000 } as const;

/** Provenance.options in golden/schema/items.ts. */
export const PROVENANCES_SHOWN = ["human", "author", "import"] as const;

/** Frame.options in golden/schema/items.ts. */
export const FRAMES_SHOWN = ["random", "disagreement", "balanced", "manual", "panel-split"] as const;

/** DEFAULT_SEED and DEFAULT_REPS in calibration/stats/bootstrap.ts (which loads pure-rand, some 20 modules). */
export const BOOTSTRAP_SHOWN = { seed: 20_261_130, reps: 2000 } as const;
