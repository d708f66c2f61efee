import { loadDraws } from "./draws.js";
import { loadLabels } from "./labels.js";
import { loadRecords } from "./record.js";
import { splitsOf, trustStates, type TrustState } from "./trust.js";
import { InputError, InputErrors } from "../golden/errors.js";
import type { TrustSettings } from "./gate.js";
import type { Judgment } from "../golden/schema/items.js";
import { trustKey, type TrustLine } from "../judge/summary/format.js";
import { servedKeys } from "../judge/summary/served.js";
import type { Wordings } from "./wording.js";

/** Trust states of a judge run, for the summary `ragjudge judge` prints. */
export interface SummaryTrust {
  states: TrustState[];
  /** By `trustKey(rubric, fingerprint, served model)`, for `formatSummary`'s `trust` option. */
  lines: Map<string, TrustLine>;
  /** Why no state could be read (a bad labels file, draw or record), when so: every rubric then shows as untrusted. */
  problem?: string;
  /** The error behind {@link problem}, for a caller that must refuse bad input (exit 2) rather than show it as untrusted. */
  error?: InputError | InputErrors;
}

/**
 * The trust state of every (rubric, fingerprint, served model) among a
 * run's judgments, decided now by the one gate (src/calibration/trust.ts)
 * from today's verdicts, the labels and draws of `labelsDir`, and the
 * records `ragjudge calibrate` wrote there: a record for another fingerprint
 * or served model, or one whose verdicts, labels or draws changed since, is
 * not trusted. A bad labels folder does not stop the summary: the problem is
 * reported and every rubric shows as untrusted. With `wordings` (context.ts
 * `wordingsOf`), labels of an earlier wording of a rubric's question do not count.
 *
 * @example
 * const t = summaryTrust(judgments, resolved.path(config.labels), config.trust, golden.questions);
 * process.stdout.write(formatSummary(summary, { trust: t.lines }));
 */
export function summaryTrust(judgments: readonly Judgment[], labelsDir: string, trust: TrustSettings | undefined, questions?: Iterable<{ id: string; split?: string }>, wordings?: Wordings): SummaryTrust {
  try {
    const states = trustStates(judgments, {
      book: loadLabels(labelsDir), draws: loadDraws(labelsDir), records: loadRecords(labelsDir),
      ...(trust ? { trust } : {}), ...(questions ? { splits: splitsOf(questions) } : {}), ...(wordings ? { wordings } : {}),
    });
    return { states, lines: new Map(states.map((s) => [trustKey(s.rubric, s.fingerprint, s.servedModel ?? ""), { trusted: s.trusted, message: s.message }])) };
  } catch (e) {
    if (!(e instanceof InputError || e instanceof InputErrors)) throw e;
    const first = e instanceof InputErrors ? e.problems[0]?.message ?? e.message : e.message;
    const problem = `trust state unknown: ${first}`;
    const lines = new Map<string, TrustLine>();
    // served models are keyed only here: the states above carry their own
    const served = servedKeys(judgments.filter((j) => j.judge !== "rule"));
    for (const j of judgments) if (j.judge !== "rule") lines.set(trustKey(j.rubric, j.fingerprint, served(j)), { trusted: false, message: `untrusted: ${problem}` });
    return { states: [], lines, problem, error: e };
  }
}
