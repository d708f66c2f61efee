import { trustStates, type TrustState } from "./gate.js";
import { loadLabels } from "./labels.js";
import { loadRecords } from "./record.js";
import { InputError, InputErrors } from "../golden/errors.js";
import type { RagjudgeConfig } from "../golden/schema/config.js";
import type { Judgment } from "../golden/schema/items.js";
import { trustKey, type TrustLine } from "../judge/summary/format.js";

/** Trust states of a judge run, for the summary `ragjudge judge` prints. */
export interface SummaryTrust {
  states: TrustState[];
  /** By `trustKey(rubric, fingerprint)`, for `formatSummary`'s `trust` option. */
  lines: Map<string, TrustLine>;
  /** Why no state could be read (a bad labels file or record), when so: every rubric then shows as untrusted. */
  problem?: string;
}

/**
 * The trust state of every (rubric, fingerprint) among a run's judgments,
 * from the calibration records in `<labels>/calibration/` (written by
 * `ragjudge calibrate`): only a record for the exact fingerprint counts, so
 * a changed prompt or model shows as uncalibrated. A bad labels folder does
 * not stop the summary: the problem is reported and every rubric shows as
 * untrusted.
 *
 * @example
 * const t = summaryTrust(judgments, resolved.path(config.labels), config.trust);
 * process.stdout.write(formatSummary(summary, { trust: t.lines }));
 */
export function summaryTrust(judgments: readonly Judgment[], labelsDir: string, trust: RagjudgeConfig["trust"] | undefined): SummaryTrust {
  try {
    const book = loadLabels(labelsDir);
    const states = trustStates(judgments, loadRecords(labelsDir), trust, { labelsHash: book.hash });
    return { states, lines: new Map(states.map((s) => [trustKey(s.rubric, s.fingerprint), { trusted: s.trusted, message: s.message }])) };
  } catch (e) {
    if (!(e instanceof InputError || e instanceof InputErrors)) throw e;
    const first = e instanceof InputErrors ? e.problems[0]?.message ?? e.message : e.message;
    const problem = `trust state unknown: ${first}`;
    const lines = new Map<string, TrustLine>();
    for (const j of judgments) if (j.judge !== "rule") lines.set(trustKey(j.rubric, j.fingerprint), { trusted: false, message: `untrusted: ${problem}` });
    return { states: [], lines, problem };
  }
}
