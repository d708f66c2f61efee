import { userInfo } from "node:os";
import { displayPath } from "../golden/errors.js";
import { projectArgs, shellArg } from "../golden/project-args.js";
import { hasUnlabelled } from "../calibration/gate.js";
import { labellingExhausted } from "./labelling-limit.js";
import type { ReportJson, RubricJson } from "./schema.js";

/**
 * The exact commands that come next after a run, printed as the summary's
 * last lines. Each is a complete command line that works as printed, from
 * the same folder: the same `--config` or `--example`, the same judge
 * overrides (so `run --require-trusted` judges under the same fingerprint),
 * and a real annotator name.
 */

/** What the user typed that the next commands must repeat. */
export interface Invocation {
  /** `["--config", "x.json"]`, `["--example"]` or `[]`. */
  config: string[];
  /** Judge overrides of the run (`--judge`, `--model`, `--base-url`, ...), to keep the fingerprint. */
  judge: string[];
  /**
   * The run's own flags a next run must repeat to gate the same way and write where this one did
   * (`--fail-under`, `--evaluations-dir`, `--name`): a CI command without the floor the run failed on would pass.
   */
  run?: string[];
  /**
   * Where the commands that read the run's judgments (sample, review, calibrate, plan) find them when the run
   * kept them outside the config's cache folder (`--cache-dir`): `["--judgments", "<dir>/judgments.jsonl"]`.
   * Without it they would read an older run's verdicts there.
   */
  judgments?: string[];
  /** The labels folder the run was gated on, when not the config's (`["--labels", dir]`): every next command that reads or writes labels, and a run again, take it. */
  labels?: string[];
  /** Who labels (default: the login name, when it is a valid annotator name; `ragjudge run` passes {@link suggestedAnnotator}). */
  annotator?: string;
}

/** The login name as an annotator name (letters, digits, `. _ @ + -`), else "me". */
export function defaultAnnotator(): string {
  let name = "";
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry (some containers)
  }
  return /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/.test(name) ? name : "me";
}

/**
 * Who the printed commands name as the labeller: the one annotator whose
 * human labels the labels folder already holds, so following them continues
 * that person's labels instead of queueing every item again under a second
 * name; with none, or several (the choice is theirs), the login name.
 * Author and imported labels, and adjudications, do not name a reviewer.
 *
 * @example
 * suggestedAnnotator(loadLabels("labels").history) // "asha" when only asha has labelled
 */
export function suggestedAnnotator(labels: Iterable<{ value: { annotator: string; provenance: string; adjudication?: boolean | undefined } }>): string {
  const names = new Set<string>();
  for (const l of labels) if (l.value.provenance === "human" && !l.value.adjudication) names.add(l.value.annotator);
  const me = defaultAnnotator();
  return names.size === 1 && !names.has(me) ? [...names][0]! : me;
}

export { shellArg };

/** A command as printed under Next: indented, each argument quoted for a shell when it needs it. */
export const commandLine = (args: readonly string[]) => "  ragjudge " + args.map(shellArg).join(" ");

/** A command that reads the run's judgments (sample, review, calibrate, plan), with the config and where the judgments are. */
const reading = (inv: Invocation, args: readonly string[]) => commandLine([...args, ...inv.config, ...(inv.judgments ?? []), ...(inv.labels ?? [])]);

/** `ragjudge run` again, as this run was invoked (config, judge, floors, folders), with `extra` flags. */
const rerun = (inv: Invocation, ...extra: string[]) => commandLine(["run", ...inv.config, ...inv.judge, ...(inv.run ?? []), ...(inv.labels ?? []), ...extra.filter((x) => !inv.run?.includes(x))]);

/**
 * The draw at which `minPerClass` labels of each answer are expected. The
 * judge's verdicts say how rare an answer is (labels mostly agree with a judge
 * worth trusting, and verdicts are many where labels are few): a judge that
 * says yes to 95% of answers needs 200 labels for 10 noes, not the 50 of
 * minLabels. The labels say how many of it are in hand: the draw adds what is
 * missing at that share to the labels there are. 0 when enough are in hand;
 * infinite when the judge never gave that answer and too few labels did.
 *
 * @example
 * forEachAnswer(rubric) // 200 with minPerClass 10, 5% of the verdicts no and no labels yet
 */
export function forEachAnswer(r: RubricJson): number {
  let yes = 0;
  let no = 0;
  // (a report built by hand in a test may leave variants out)
  for (const v of r.variants ?? []) {
    const f = v.pairs ?? v;
    yes += f.pass - f.rulePass;
    no += f.fail - f.ruleFail;
  }
  if (yes + no === 0) return 0;
  const c = r.calibration;
  const labelled = c ? c.labelYes + c.labelNo : 0;
  // each answer: what is missing of it, at the share the judge gives it; the larger need
  const need = (have: number, count: number) => {
    const missing = r.trust.thresholds.minPerClass - have;
    if (missing <= 0) return 0;
    return count > 0 ? labelled + Math.ceil(missing / (count / (yes + no))) : Infinity;
  };
  return Math.max(need(c?.labelYes ?? 0, yes), need(c?.labelNo ?? 0, no));
}

/**
 * The labelling loop for some untrusted rubrics: sample a random draw of
 * the held-out split, review it, calibrate, and run with the gate. A draw's
 * size is its total (its seed is its frame's, so a larger draw holds the
 * smaller one: the items already labelled stay drawn and only the new ones
 * are queued): the gate's minimum, or 20 more once it is met, or more where
 * the rarer answer needs it to reach minPerClass ({@link forEachAnswer}),
 * never more than the held-out items there are (a larger number draws them
 * all, as a new draw).
 */
function labelLoop(rubrics: readonly RubricJson[], inv: Invocation, report: ReportJson): { lines: string[]; annotator: string; split: string; heldout: boolean } {
  const annotator = inv.annotator ?? defaultAnnotator();
  const want = (r: RubricJson) => {
    const base = r.trust.n < r.trust.thresholds.minLabels ? r.trust.thresholds.minLabels : r.trust.n + 20;
    const n = Math.max(base, forEachAnswer(r));
    if (r.trust.heldoutItems !== undefined && r.trust.heldoutItems > 0) return Math.min(n, r.trust.heldoutItems);
    return Number.isFinite(n) ? n : base;
  };
  const n = Math.max(...rubrics.map(want));
  // The held-out split the gate counts (the config's trust.heldout): one name for every untrusted rubric.
  const split = rubrics[0]!.trust.heldout;
  const heldout = report.questions.some((q) => q.split === split);
  // Only these rubrics when others are judged too: a draw for a rubric labelling cannot help queues labels spent for nothing.
  const judged = report.rubrics.filter((r) => r.judge !== "rule").map((r) => r.rubric);
  // (one rubric may be untrusted under two fingerprints: names are compared, not entries)
  const names = [...new Set(rubrics.map((r) => r.rubric))];
  const only = names.length < new Set(judged).size ? ["--rubrics", names.join(",")] : [];
  const lines = [
    reading(inv, ["sample", "--random", String(n), ...(heldout ? ["--split", split] : []), ...only, "--annotator", annotator]),
    reading(inv, ["review", "--annotator", annotator]),
    reading(inv, ["calibrate"]),
    rerun(inv, "--require-trusted"),
  ];
  return { lines, annotator, split, heldout };
}

/**
 * The commands that finish the draws of untrusted rubrics that still have
 * unlabelled drawn items (below `minCoverage` they block trust, above it
 * they count as disagreements): `sample --draw ID` queues the draw's
 * unlabelled items again, whatever its design, and `review` labels them.
 * Drawing more first would only add another draw to finish.
 */
function finishDraws(rubrics: readonly RubricJson[], inv: Invocation): string[] {
  const draws = rubrics.flatMap((r) => r.trust.draws.filter(hasUnlabelled).map((d) => ({ r, d })));
  const state = (d: { labelled: number; drawn: number }) => (d.labelled === 0 ? `none of ${d.drawn} labelled yet` : `${d.labelled} of ${d.drawn} labelled`);
  const blocking = draws.some(({ d }) => !d.counts);
  const out = [`Next: ${draws.length === 1 ? "a draw is" : `${draws.length} draws are`} not finished (${draws.map(({ r, d }) => `${r.rubric}: draw ${d.id} for ${d.annotator}, ${state(d)}`).join("; ")}); ${blocking ? "a draw below the share that must be labelled blocks trust, and a" : "a"} drawn item left unlabelled counts as a disagreement. Queue the unlabelled items again and label them:`];
  for (const { d } of draws) {
    out.push(reading(inv, ["sample", "--draw", d.id, "--annotator", d.annotator]));
    out.push(reading(inv, ["review", "--annotator", d.annotator]));
  }
  out.push(reading(inv, ["calibrate"]), rerun(inv, "--require-trusted"));
  // Every such draw counts: its rest may have been skipped on purpose, and plan --budget then draws more beside it.
  if (!blocking) out.push("Items skipped in review on purpose can stay skipped (they count as disagreements until labelled): once its annotator has skipped every unlabelled item of a draw, plan says how many more labels the gate needs and prints the command that draws them:", reading(inv, ["plan"]));
  return out;
}

/**
 * The next commands for a finished run, as lines (empty when the run is
 * quiet about it): re-run after judge errors; label a random sample, review
 * it, calibrate and gate with `--require-trusted` while a rubric is
 * untrusted; the CI gate once every rubric is trusted. The shipped example
 * points to `ragjudge init` instead (its labels are the project's own),
 * unless run with `--labels`: then it is gated on labels of one's own.
 *
 * @example
 * nextCommands(report, { config: [], judge: [] })
 * // ["Next: ...", "  ragjudge sample --random 50 --split heldout --annotator asha", ...]
 */
export function nextCommands(report: ReportJson, inv: Invocation): string[] {
  if (!report.config.shippedExample) return projectNext(report, inv);
  const shipped = ["Next: this was the shipped example. To evaluate your own data, start a project in a folder of its own:", "  ragjudge init my-eval"];
  // With --labels the example is gated on labels of one's own: its trust lines send the user here for the commands that label them.
  return inv.labels?.length ? [...projectNext(report, inv), ...shipped] : shipped;
}

/** {@link nextCommands} of a project's run (or the example's gated on `--labels`). */
function projectNext(report: ReportJson, inv: Invocation): string[] {
  const out: string[] = [];
  if (report.judgeTotals.errors > 0) {
    out.push(`Next: ${report.judgeTotals.errors} error verdict${report.judgeTotals.errors === 1 ? "" : "s"} left (not yes or no); run again to retry them (committed verdicts come from the cache):`, rerun(inv));
    return out;
  }
  const all = report.rubrics.filter((r) => r.judge !== "rule" && !r.trust.trusted);
  if (all.length === 0) {
    if (report.rubrics.length) out.push("Next: every rubric is trusted; gate CI on it:", rerun(inv, "--require-trusted"));
    return out;
  }
  // Labels that pass with no current record: calibrating is the one step left (more labels or a new judge are not).
  const recordOnly = all.filter((r) => r.trust.labelsPass);
  if (recordOnly.length) {
    out.push(
      `Next: the labels of ${recordOnly.map((r) => r.rubric).join(", ")} pass the gate, but no current calibration record measures this judge (${recordOnly.map((r) => `${r.rubric}: ${withoutAdvice(r.trust.message)}`).join("; ")}). Record the calibration, then gate on it:`,
      reading(inv, ["calibrate"]),
      rerun(inv, "--require-trusted"),
    );
  }
  const untrusted = all.filter((r) => !recordOnly.includes(r));
  if (untrusted.length === 0) return out;
  // A rubric whose held-out split holds fewer judged items than the gate's minimum cannot be made trusted by
  // labelling: saying "label a sample" again would send the user round the same four commands for ever.
  const short = untrusted.filter((r) => r.trust.heldoutItems !== undefined && r.trust.heldoutItems < r.trust.thresholds.minLabels);
  if (short.length) {
    const split = short[0]!.trust.heldout;
    const needs = [...new Set(short.map((r) => r.trust.thresholds.minLabels))];
    const need = needs.length === 1 ? `${needs[0]} random labels of each` : `random labels (${short.map((r) => `${r.rubric} ${r.trust.thresholds.minLabels}`).join(", ")})`;
    out.push(
      `Next: labelling cannot make ${short.map((r) => r.rubric).join(", ")} trusted: the gate needs ${need} in the held-out split "${split}", which holds only ${short.map((r) => `${r.trust.heldoutItems} judged item${r.trust.heldoutItems === 1 ? "" : "s"} of ${r.rubric}`).join(", ")}. Put more questions in that split (\`"split": "${split}"\` in the golden set) and run again; this says what each rubric needs:`,
      reading(inv, ["plan"]),
    );
  }
  // Every held-out item labelled, yet short of the gate's count or of one answer: more questions, not more labels.
  const full = untrusted.filter((r) => !short.includes(r) && r.trust.reason === "too-few-labels" && r.trust.heldoutItems !== undefined && r.trust.n >= r.trust.heldoutItems);
  if (full.length) {
    const what = (r: RubricJson) => `${r.rubric}: all ${r.trust.heldoutItems} held-out judged items are labelled${r.calibration ? ` (${r.calibration.labelYes} yes / ${r.calibration.labelNo} no)` : ""}, and the gate needs ${r.trust.thresholds.minLabels} with ${r.trust.thresholds.minPerClass} of each answer`;
    out.push(
      `Next: labelling cannot make ${full.map((r) => r.rubric).join(", ")} trusted (${full.map(what).join("; ")}). Put more questions in the held-out split (\`"split": "${full[0]!.trust.heldout}"\` in the golden set) and run again; this says what each rubric needs:`,
      reading(inv, ["plan"]),
    );
  }
  // Labelling that can no longer help (every held-out item labelled, or plan's "cannot at kappa"): sampling again
  // would queue nothing or never pass, so point at the judge, which is what has to change.
  const stuck = untrusted.filter((r) => !short.includes(r) && !full.includes(r)).flatMap((r) => {
    const why = labellingExhausted(r);
    return why === null ? [] : [{ r, why }];
  });
  if (stuck.length) {
    out.push(
      `Next: more labels cannot make ${stuck.map((s) => s.r.rubric).join(", ")} trusted at this kappa (${stuck.map((s) => `${s.r.rubric}: ${s.why}`).join("; ")}). Improve the judge instead: the rubric's prompt, or the judge's model; then run again (\`${reading(inv, ["plan"]).trim()}\` says what each rubric needs):`,
      rerun(inv),
    );
  }
  // Author labels are never evidence: sampling again would queue nothing for items people already labelled.
  const authored = untrusted.filter((r) => !short.includes(r) && !full.includes(r) && r.trust.reason === "author-labels");
  if (authored.length) {
    const files = [...new Set(authored.flatMap((r) => r.trust.authorFiles ?? []))].sort();
    out.push(`Next: ${authored.map((r) => r.rubric).join(", ")} rest${authored.length === 1 ? "s" : ""} on author labels (example labels, the project's own: never evidence about a judge). Move ${files.length ? files.join(", ") : "the files of author labels"} out of the labels folder, then label what is left unlabelled as yourself and run again:`);
    out.push(...labelLoop(authored, inv, report).lines);
  }
  // A part-labelled draw blocks trust until it is finished: drawing again would only add another draw to finish.
  // (also before any label counts: a part-labelled first draw is finished with sample --draw, not drawn anew)
  const unfinished = untrusted.filter((r) => !short.includes(r) && !full.includes(r) && !authored.includes(r) && (r.trust.draws ?? []).some(hasUnlabelled));
  if (unfinished.length) out.push(...finishDraws(unfinished, inv));
  const reachable = untrusted.filter((r) => !short.includes(r) && !stuck.some((s) => s.r === r) && !unfinished.includes(r) && !authored.includes(r) && !full.includes(r));
  if (reachable.length === 0) return out;
  const loop = labelLoop(reachable, inv, report);
  out.push(
    `Next: ${reachable.length} rubric${reachable.length === 1 ? " is" : "s are"} untrusted (${reachable.map((r) => r.rubric).join(", ")}). Label a random sample${loop.heldout ? ` of the ${loop.split} split` : ""}, measure the judge against it, and gate on it${loop.annotator === defaultAnnotator() ? "" : ` (as ${loop.annotator}, who has labelled here before: put your own name if you are someone else)`}:`,
    ...loop.lines,
  );
  return out;
}

/**
 * A trust message as a reason quoted before the commands that act on it:
 * without its state and its own advice to calibrate (the commands printed
 * after it say how, once, rather than once per rubric).
 *
 * @example
 * withoutAdvice("untrusted: no calibration record for this judge: run ragjudge calibrate --config c.json (stale)") // "no calibration record for this judge (stale)"
 */
function withoutAdvice(message: string): string {
  return message.replace(/^untrusted: /, "").replace(/: run ragjudge calibrate(?: (?:'[^']*'|\\'|[^\s'(])+)*/g, "");
}

/**
 * A trust line's advice to `run ragjudge calibrate`, with the flags that
 * calibrate the same labels on the same verdicts, so the hint works as
 * printed from any folder: `--config` (a bare `ragjudge calibrate` finds
 * only a config in the folder it is typed in) or `--example`; `--labels`
 * when the labels were read from there; `--judgments` when the verdicts are
 * not where `calibrate` looks by default (`judge --out` or `--cache-dir`,
 * `run --cache-dir`, the compared evaluation's own). The shipped example
 * without `--labels` gets `--no-write`: its labels folder is the installed
 * package's, which `calibrate` refuses to write into.
 *
 * @example
 * calibrateHint(cfg, "mine", "untrusted: no calibration record for this judge: run ragjudge calibrate")
 * // "untrusted: no calibration record for this judge: run ragjudge calibrate --config ragjudge.config.json --labels mine"
 */
export function calibrateHint(cfg: { isShippedExample: boolean; file: string }, labels: string | undefined, message: string, judgments?: string): string {
  const args = [
    ...projectArgs(cfg),
    ...(labels !== undefined ? ["--labels", labels] : cfg.isShippedExample ? ["--no-write"] : []),
    ...(judgments !== undefined ? ["--judgments", judgments] : []),
  ];
  const command = `run ragjudge calibrate ${args.map(shellArg).join(" ")}`;
  // a function, not a string: a folder named with `$&` or `$'` is text, not a replacement pattern
  return message.replace(/\brun ragjudge calibrate\b/g, () => command);
}
