import type { GoldenQuestion } from "../golden/schema/golden.js";
import type { Judgment } from "../golden/schema/items.js";
import { calibrate, type RubricCalibration } from "./calibrate.js";
import type { DrawBook } from "./draws.js";
import type { TrustSettings } from "./gate.js";
import type { LabelBook } from "./labels.js";
import type { LoadedRecord } from "./record.js";
import type { Wordings } from "./wording.js";
import { cohenKappaOfRatings, krippendorffAlphaNominal, type Interval } from "./stats/index.js";

/**
 * A judge panel calibrated side by side: every judge against the same
 * labels (the same calibration and trust gate as a single judge, per judge
 * fingerprint), the agreement between judges (pairwise Cohen's kappa,
 * Krippendorff's alpha over the model and baseline judges, beside the
 * human-human figure when there is one), the items where they split, and
 * one recommendation per rubric: the cheapest trusted judge, or the closest
 * to trust when none is.
 */

/** What the panel figures need of one judge's run. */
export interface PanelJudgeInput {
  name: string;
  kind: string;
  judgments: readonly Judgment[];
  /** A combined judge's member names (left out of the judges' agreement, which its members already carry). */
  members?: readonly string[];
  stopped?: string;
  byRubric: ReadonlyMap<string, { verdicts: number; errors: number; usd: number | null; latenciesMs: readonly number[]; escalated?: { uncertain: number; error: number; sample: number; total: number }; sampled?: { items: number; disagreeing: number } }>;
}

/** One judge's row for one rubric. */
export interface PanelRow {
  judge: string;
  kind: string;
  fingerprint: string | null;
  /** Labels the gate counted. */
  n: number;
  kappa: number | null;
  ci: Interval | null;
  tpr: number | null;
  tnr: number | null;
  trusted: boolean;
  trust: string;
  /** Set when today's labels pass the gate but `ragjudge calibrate` has no current record of this judge (so it is not trusted). */
  labelsPass?: true;
  verdicts: number;
  errors: number;
  errorRate: number | null;
  /** USD per 1,000 verdicts (null: a model without a price). */
  usdPer1000: number | null;
  medianLatencyMs: number | null;
  escalation?: { rate: number | null; uncertain: number; error: number; sample: number; total: number; sampled?: { items: number; disagreeing: number } };
  stopped?: string;
}

/** Agreement of two judges on the items both gave yes or no. */
export interface PanelPair {
  a: string;
  b: string;
  n: number;
  kappa: number | null;
  agreement: number | null;
}

/** One item where the judges split. */
export interface PanelSplit {
  variant: string;
  question: string;
  unit: string;
  inputHash: string;
  verdicts: Record<string, "yes" | "no" | "error">;
}

/** The panel's figures for one rubric. */
export interface PanelRubric {
  rubric: string;
  rows: PanelRow[];
  pairs: PanelPair[];
  /** Krippendorff's alpha (nominal) over the non-combined judges; null when undefined. */
  alpha: number | null;
  alphaUnits: number;
  /** People's agreement with each other on the same rubric, when two or more labelled the same items. */
  humans: { alpha: number | null; kappa: number | null; overlap: number } | null;
  /** Items where the non-combined judges gave both yes and no. */
  splits: PanelSplit[];
  /** "cheapest trusted judge: X (kappa ..., $... per 1,000)" or "no judge is trusted; closest: Y (...)". */
  recommendation: string;
  recommended: string | null;
}

/** Inputs of {@link panelFigures}. */
export interface PanelFiguresInput {
  judges: readonly PanelJudgeInput[];
  book: LabelBook;
  draws?: DrawBook;
  questions?: ReadonlyMap<string, GoldenQuestion>;
  trust?: TrustSettings;
  /**
   * The calibration records of the labels folder (`<labels>/calibration`).
   * A judge of the panel is trusted only on a current record of its exact
   * judge, as everywhere else (`decideTrust`); without records every judge
   * is decided from today's labels alone, as `calibrate --no-write` prints.
   */
  records?: readonly LoadedRecord[];
  /** Today's wording hash of each rubric (context.ts `wordingsOf`): labels of an earlier wording of its question do not count. */
  wordings?: Wordings;
  seed?: number;
  reps?: number;
  time?: string;
}

/** "0.78 [0.66, 0.90]" (or "n/a"). */
export function kappaText(kappa: number | null, ci: Interval | null): string {
  if (kappa === null) return "n/a";
  return ci ? `${kappa.toFixed(2)} [${ci.lo.toFixed(2)}, ${ci.hi.toFixed(2)}]` : kappa.toFixed(2);
}

/** "$0.21 per 1,000" (or "cost unknown"). */
export function costText(usd: number | null): string {
  if (usd === null) return "cost unknown (no price)";
  return `$${usd < 0.01 && usd > 0 ? usd.toPrecision(2) : usd.toFixed(2)} per 1,000`;
}

function mainGroup(cals: readonly RubricCalibration[], rubric: string): RubricCalibration | undefined {
  return cals.filter((c) => c.group.rubric === rubric).sort((a, b) => b.group.items - a.group.items)[0];
}

function row(j: PanelJudgeInput, rubric: string, cal: RubricCalibration | undefined): PanelRow {
  const use = j.byRubric.get(rubric);
  const verdicts = use?.verdicts ?? 0;
  const errors = use?.errors ?? 0;
  const lat = use ? [...use.latenciesMs].sort((a, b) => a - b) : [];
  const m = lat.length >> 1;
  const r: PanelRow = {
    judge: j.name,
    kind: j.kind,
    fingerprint: cal?.group.fingerprint ?? null,
    n: cal?.trust.n ?? 0,
    kappa: cal?.trust.kappa ?? null,
    ci: cal?.trust.ci ?? null,
    tpr: cal?.gate.rates.tpr ?? null,
    tnr: cal?.gate.rates.tnr ?? null,
    trusted: cal?.trust.trusted ?? false,
    trust: cal?.trust.message ?? "untrusted: no verdicts",
    ...(cal?.trust.labelsPass ? { labelsPass: true as const } : {}),
    verdicts,
    errors,
    errorRate: verdicts ? errors / verdicts : null,
    usdPer1000: use?.usd === null || use === undefined ? (use ? null : 0) : verdicts ? (use.usd / verdicts) * 1000 : 0,
    medianLatencyMs: lat.length ? (lat.length % 2 ? lat[m]! : (lat[m - 1]! + lat[m]!) / 2) : null,
  };
  if (use?.escalated) r.escalation = { rate: verdicts ? use.escalated.total / verdicts : null, ...use.escalated, ...(use.sampled ? { sampled: use.sampled } : {}) };
  if (j.stopped) r.stopped = j.stopped;
  return r;
}

/**
 * The recommendation line: among trusted judges the cheapest (a judge
 * without a price ranks after every priced one; ties go to the higher
 * kappa); with none trusted, the judge closest to trust (highest lower
 * bound of kappa's interval, then kappa).
 *
 * @example
 * recommend(rows).line // "cheapest trusted judge: small (kappa 0.78 [0.66, 0.90], $0.21 per 1,000)"
 */
export function recommend(rows: readonly PanelRow[]): { line: string; judge: string | null } {
  const cost = (r: PanelRow) => r.usdPer1000 ?? Number.POSITIVE_INFINITY;
  const trusted = rows.filter((r) => r.trusted).sort((a, b) => cost(a) - cost(b) || (b.kappa ?? -2) - (a.kappa ?? -2));
  const best = trusted[0];
  if (best) return { line: `cheapest trusted judge: ${best.judge} (kappa ${kappaText(best.kappa, best.ci)}, ${costText(best.usdPer1000)})`, judge: best.judge };
  const measured = rows.filter((r) => r.kappa !== null).sort((a, b) => (b.ci?.lo ?? b.kappa ?? -2) - (a.ci?.lo ?? a.kappa ?? -2) || (b.kappa ?? -2) - (a.kappa ?? -2));
  const close = measured[0];
  if (!close) return { line: "no judge is trusted; closest: none yet (no label pairs with the panel's verdicts: label a random sample)", judge: null };
  // Labels that pass are not trust: no current calibration record of the judge (the gate's first rule) says so.
  // the CLI fills in the command's flags (report/panel/hints.ts: the project, the panel's verdicts file)
  const record = close.labelsPass ? "; its labels pass the gate, but ragjudge calibrate has no current record of this judge: run ragjudge calibrate" : "";
  return { line: `no judge is trusted; closest: ${close.judge} (kappa ${kappaText(close.kappa, close.ci)}, ${close.n} labels, ${costText(close.usdPer1000)}${record})`, judge: close.judge };
}

const unitKey = (j: Pick<Judgment, "variant" | "question" | "unit" | "inputHash">) => `${j.variant}\0${j.question}\0${j.unit}\0${j.inputHash}`;

function agreement(rubric: string, judges: readonly PanelJudgeInput[]): Pick<PanelRubric, "pairs" | "alpha" | "alphaUnits" | "splits"> {
  const verdicts = judges.map((j) => {
    const m = new Map<string, Judgment>();
    for (const x of j.judgments) if (x.rubric === rubric && x.judge !== "rule" && x.repeat === 0) m.set(unitKey(x), x);
    return m;
  });
  const pairs: PanelPair[] = [];
  for (let a = 0; a < judges.length; a++) {
    for (let b = a + 1; b < judges.length; b++) {
      const ra: string[] = [];
      const rb: string[] = [];
      for (const [k, x] of verdicts[a]!) {
        const y = verdicts[b]!.get(k);
        if (!y || x.verdict === "error" || y.verdict === "error") continue;
        ra.push(x.verdict);
        rb.push(y.verdict);
      }
      const agree = ra.filter((v, i) => v === rb[i]).length;
      pairs.push({ a: judges[a]!.name, b: judges[b]!.name, n: ra.length, kappa: ra.length ? cohenKappaOfRatings(ra, rb, ["yes", "no"]).kappa : null, agreement: ra.length ? agree / ra.length : null });
    }
  }
  const raters = judges.map((j, i) => ({ j, v: verdicts[i]! })).filter((x) => !x.j.members);
  const units = [...new Set(raters.flatMap((r) => [...r.v.keys()]))].sort();
  const matrix = raters.map((r) => units.map((u) => {
    const v = r.v.get(u)?.verdict;
    return v === "yes" || v === "no" ? v : null;
  }));
  const alpha = raters.length >= 2 && units.length ? krippendorffAlphaNominal(matrix) : null;
  const splits: PanelSplit[] = [];
  units.forEach((u, i) => {
    const col = matrix.map((row) => row[i]);
    if (!(col.includes("yes") && col.includes("no"))) return;
    const any = raters.map((r) => r.v.get(u)).find((x) => x)!;
    const vs: Record<string, "yes" | "no" | "error"> = {};
    for (const r of raters) {
      const x = r.v.get(u);
      if (x) vs[r.j.name] = x.verdict as "yes" | "no" | "error";
    }
    splits.push({ variant: any.variant, question: any.question, unit: any.unit, inputHash: any.inputHash, verdicts: vs });
  });
  return { pairs, alpha: alpha?.alpha ?? null, alphaUnits: alpha?.units ?? 0, splits };
}

/**
 * Calibrates every judge of a panel against the same labels and compares
 * them, per rubric (in the order the rubrics first appear).
 *
 * @example
 * const panel = panelFigures({ judges: runs, book, draws, questions: golden.byId, trust: config.trust });
 * panel[0].recommendation // "no judge is trusted; closest: small (kappa 0.41 [0.12, 0.70], 30 labels, $0.02 per 1,000)"
 */
export function panelFigures(input: PanelFiguresInput): PanelRubric[] {
  const cals = input.judges.map((j) => calibrate({
    judgments: j.judgments, judgmentsFile: { file: "panel-judgments.jsonl" }, book: input.book,
    ...(input.draws ? { draws: input.draws } : {}), ...(input.questions ? { questions: input.questions } : {}), ...(input.trust ? { trust: input.trust } : {}),
    ...(input.records ? { records: input.records } : {}), ...(input.wordings ? { wordings: input.wordings } : {}),
    ...(input.seed === undefined ? {} : { seed: input.seed }), ...(input.reps === undefined ? {} : { reps: input.reps }), ...(input.time ? { time: input.time } : {}),
  }).rubrics);
  const rubrics = [...new Set(input.judges.flatMap((j) => j.judgments.filter((x) => x.judge !== "rule").map((x) => x.rubric)))];
  return rubrics.map((rubric) => {
    const groups = cals.map((c) => mainGroup(c, rubric));
    const rows = input.judges.map((j, i) => row(j, rubric, groups[i]));
    const people = groups.find((g) => g?.annotatorAgreement)?.annotatorAgreement;
    const rec = recommend(rows);
    return {
      rubric,
      rows,
      ...agreement(rubric, input.judges),
      humans: people ? { alpha: people.krippendorff.alpha, kappa: people.cohen?.kappa ?? people.fleiss?.kappa ?? null, overlap: people.overlap } : null,
      recommendation: rec.line,
      recommended: rec.judge,
    };
  });
}
