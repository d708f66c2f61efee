import { existsSync } from "node:fs";
import { join } from "node:path";
import { wordingsOf } from "../../calibration/context.js";
import { summaryTrust } from "../../calibration/summary-trust.js";
import type { ResolvedConfig } from "../../golden/config.js";
import { loadGolden } from "../../golden/dataset.js";
import { readBytes } from "../../golden/files.js";
import { sha256 } from "../../golden/hash.js";
import { displayPath, InputError, InputErrors } from "../../golden/errors.js";
import { loadJsonl } from "../../golden/jsonl.js";
import { Judgment } from "../../golden/schema/items.js";
import { trustKey, type TrustLine } from "../../judge/summary/format.js";
import type { RubricJson } from "../schema.js";
import { reportDifference } from "./consistency.js";
import type { LoadedEvaluation } from "./load.js";
import { checkRules } from "./rules-check.js";

/**
 * The trust state `compare` shows is decided again, never read from
 * report.json: a report can be edited to say "trusted", and the calibration
 * record a run rested on can have gone stale since (labels added, a draw
 * recorded, a record deleted). The one gate `ragjudge judge` applies
 * (`summaryTrust`, src/calibration/summary-trust.ts) decides it from the
 * evaluation's own verdicts (its judgments.jsonl) against the project's
 * labels, draws and calibration records. Where that cannot be done (no
 * project config, no verdicts) the stored state is shown as not re-checked,
 * and never as trusted.
 */

/** Where an evaluation's trust was re-checked (the records read), or why it could not be. */
export type TrustSource = { rechecked: true; records: string } | { rechecked: false; why: string };

/** An evaluation's trust decided again: each judge's state now, by `trustKey(rubric, fingerprint, served model)`. */
export interface TrustRecheck {
  source: TrustSource;
  /**
   * Set when the project's files could not be read (a malformed labels file,
   * draw or record; the evaluation's judgments.jsonl or the golden set):
   * bad input, which `compare --require-trusted` refuses (exit 2) instead of
   * calling the judges untrusted (exit 1), as `run --require-trusted` does.
   */
  badInput?: InputError | InputErrors;
  states: ReadonlyMap<string, TrustLine>;
  /** Rubrics with verdicts of a judge (not only rule verdicts) in the evaluation's judgments.jsonl. */
  judged: ReadonlySet<string>;
  /** Rubrics with rule verdicts whose items the project's data also gives to a judge, with how many (`checkRules`, rules-check.ts). */
  judgeItems: ReadonlyMap<string, number>;
}

/** The evaluation's verdicts file, as `ragjudge run` writes it into the folder. */
const JUDGMENTS_FILE = "judgments.jsonl";

/** A recheck that could not be done, and why (the reason names what to do). */
export function notRechecked(why: string): TrustRecheck {
  return { source: { rechecked: false, why }, states: new Map(), judged: new Set(), judgeItems: new Map() };
}

/**
 * Decides the trust of every judge of an evaluation again, as `ragjudge
 * judge` does for its verdicts: the evaluation's judgments.jsonl, the
 * project's golden set (each question's split) and its labels folder (labels,
 * draws, calibration records; `labels` when given). Verdicts or a golden set that cannot be read
 * leave it not re-checked, saying why; a bad labels folder makes every judge
 * untrusted, as in `judge`. Either way the unreadable file's error is kept
 * (`badInput`): `compare --require-trusted` refuses it as bad input (exit 2).
 *
 * @example
 * const ev = loadEvaluation("evaluations/20261130T134501Z-example");
 * ev.trust = recheckTrust(ev, loadConfig());
 */
export function recheckTrust(ev: LoadedEvaluation, project: ResolvedConfig, labels = project.path(project.config.labels)): TrustRecheck {
  const file = join(ev.folder, JUDGMENTS_FILE);
  if (!existsSync(file)) return notRechecked(`${displayPath(file)} is missing, so there are no verdicts to re-check`);
  try {
    const judgments = loadJsonl(file, Judgment).map((r) => r.value);
    const goldenFile = project.path(project.config.golden);
    const golden = loadGolden(goldenFile);
    if (sha256(readBytes(goldenFile)) !== ev.report.inputs.golden.sha256) {
      return notRechecked(`the evaluation's golden set (sha256 ${ev.report.inputs.golden.sha256.slice(0, 12)}) is not the project's ${displayPath(goldenFile)}: compare it from the project it was run in (--config)`);
    }
    const differs = reportDifference(ev.report, judgments, golden.questions);
    if (differs) return notRechecked(`${differs}: report.json and ${displayPath(file)} are not one run's, so its figures rest on no verdicts the gate can check`);
    const rules = checkRules(judgments, project, ev.report);
    if (rules.forged) return notRechecked(rules.forged);
    const t = summaryTrust(judgments, labels, project.config.trust, golden.questions, wordingsOf(project));
    const judged = new Set(judgments.filter((j) => j.judge !== "rule").map((j) => j.rubric));
    return { source: { rechecked: true, records: displayPath(join(labels, "calibration")) }, states: t.lines, judged, judgeItems: rules.judgeItems, ...(t.error ? { badInput: t.error } : {}) };
  } catch (e) {
    if (!(e instanceof InputError || e instanceof InputErrors)) throw e;
    return { ...notRechecked(e instanceof InputErrors ? e.problems[0]?.message ?? e.message : e.message), badInput: e };
  }
}

/** The gate's line now for one report entry of a re-checked evaluation. */
function currentLine(check: TrustRecheck, r: RubricJson): TrustLine {
  if (r.judge === "rule") {
    // Rule verdicts are exact and need no calibration, but only when no judge gave, or had to give, verdicts of the rubric.
    if (check.judged.has(r.rubric)) return { trusted: false, message: `untrusted: report.json says ${r.rubric} was decided by rule only, but ${JUDGMENTS_FILE} holds judge verdicts of it` };
    const left = check.judgeItems.get(r.rubric) ?? 0;
    if (left > 0) return { trusted: false, message: `untrusted: report.json says ${r.rubric} was decided by rule only, but the project's data gives ${left} item(s) of it to a judge, whose verdicts ${JUDGMENTS_FILE} lacks` };
    return { trusted: true, message: r.trust.message };
  }
  return check.states.get(trustKey(r.rubric, r.fingerprint, r.servedModel ?? ""))
    ?? { trusted: false, message: `untrusted: ${JUDGMENTS_FILE} holds no verdict of this judge (fingerprint ${r.fingerprint.slice(0, 12)}), so nothing backs report.json's figures` };
}

/** One side's trust in a compared measure (a rubric, or the answer outcome and the rubrics it rests on). */
export interface SideTrust {
  /** report.json's word: every rubric of the measure trusted. */
  recorded: boolean;
  /** The same, decided again now; null when the evaluation could not be re-checked (its side's `trust` says why). */
  now: boolean | null;
  /** Each rubric whose recorded and current states differ, in words: which way, and the gate's line now. */
  disagreements: string[];
  /** Each rubric not trusted now, with the gate's reason. */
  untrusted: string[];
}

const withoutState = (message: string) => message.replace(/^(un)?trusted: /, "");

/**
 * One side's trust in a measure, from the report entries it rests on:
 * report.json's word beside the gate's now, and where they differ, said in
 * words ("correctness: report.json says trusted; the calibration records
 * (labels/calibration) say not: stale (...)").
 */
export function sideTrust(ev: LoadedEvaluation, entries: readonly RubricJson[]): SideTrust {
  const recorded = entries.every((r) => r.trust.trusted);
  const check = ev.trust;
  if (!check?.source.rechecked) return { recorded, now: null, disagreements: [], untrusted: [] };
  const records = check.source.records;
  const out: SideTrust = { recorded, now: true, disagreements: [], untrusted: [] };
  for (const r of entries) {
    const line = currentLine(check, r);
    out.now &&= line.trusted;
    if (!line.trusted) out.untrusted.push(`${r.rubric}: ${withoutState(line.message)}`);
    if (r.trust.trusted && !line.trusted) out.disagreements.push(`${r.rubric}: report.json says trusted; the calibration records (${records}) say not: ${withoutState(line.message)}`);
    if (!r.trust.trusted && line.trusted) out.disagreements.push(`${r.rubric}: report.json says untrusted; the calibration records (${records}) now say trusted: ${withoutState(line.message)}`);
  }
  return out;
}
