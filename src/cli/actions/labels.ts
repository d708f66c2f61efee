import { join, relative } from "node:path";
import { knownRubricNames, wordingsOf } from "../../calibration/context.js";
import { readLabelsCsv, labelsToCsv, type CsvImport, type KnownNames } from "../../calibration/labels-csv.js";
import { labelHistoryProblems, lookalikeOf, lookalikeWords, namesInUse } from "../../calibration/label-checks.js";
import { shellArg } from "../../report/next.js";
import { appendLabels, currentLabels, loadLabels, type LabelBook } from "../../calibration/labels.js";
import { drawItemOf, loadDraws } from "../../calibration/draws.js";
import { configInputs, loadConfig, type ResolvedConfig } from "../../golden/config.js";
import { outputTarget } from "../../golden/paths.js";
import { loadGolden } from "../../golden/dataset.js";
import { UnknownQuestions } from "../../golden/unknown-question.js";
import { InputError, InputErrors } from "../../golden/errors.js";
import { writeOutputFile } from "../../calibration/output.js";
import { canonicalJson } from "../../golden/hash.js";
import type { Label } from "../../golden/schema/items.js";
import { UsageError } from "../errors.js";
import { EXAMPLE_LABELS, labelsToWrite } from "./example-labels.js";

export interface Common {
  labels?: string;
  config?: string;
}

/**
 * The labels folder and, when a config is given or needed, the rubrics,
 * golden-set questions and variants to check imported labels against. With
 * `--labels` and no `--config`, no config is read (an imported data set may
 * have none). With `write` (import), the installed example's folder is refused.
 */
function context(opts: Common, write = false): { dir: string; known?: () => KnownNames; resolved?: ResolvedConfig } {
  if (opts.labels && !opts.config) return { dir: opts.labels };
  const resolved = loadConfig(opts.config);
  const known = (): KnownNames => {
    const rubrics = knownRubricNames(resolved);
    const golden = loadGolden(resolved.path(resolved.config.golden));
    const unknown = new UnknownQuestions(() => golden.byId.keys(), golden.file);
    return {
      ...(rubrics ? { rubrics } : {}),
      question: (id) => (golden.byId.has(id) ? undefined : unknown.notIn(id)),
      variants: { names: resolved.config.variants.map((v) => v.name), file: resolved.file },
    };
  };
  const hint = `add --labels ${EXAMPLE_LABELS} to import into a folder of your own (made when missing)`;
  return { dir: write ? labelsToWrite(resolved, opts.labels, hint) : opts.labels ?? resolved.path(resolved.config.labels), known, resolved };
}

/**
 * `ragjudge labels import`'s action (see commands/labels.ts). Each row without a `wordingHash` cell is stamped
 * with its rubric's wording as on disk now (the config's rubrics; none with `--labels` and no `--config`).
 */
export function labelsImport(file: string, opts: Common & { annotator?: string; provenance?: string; source?: string; frame?: string; inclusionProbability?: string; split?: string; attest?: string }): void {
  let inclusionProbability: number | undefined;
  if (opts.inclusionProbability !== undefined) {
    inclusionProbability = Number(opts.inclusionProbability);
    if (!(inclusionProbability > 0 && inclusionProbability <= 1)) throw new UsageError(`--inclusion-probability must be in (0, 1], got ${JSON.stringify(opts.inclusionProbability)}`);
  }
  const { dir, known, resolved } = context(opts, true);
  const wordings = resolved ? wordingsOf(resolved) : undefined;
  const draws = loadDraws(dir);
  const isDrawn = (l: Label) => draws.draws.some((d) => drawItemOf(d, l, l.inputHash)?.drawn === true);
  const csv = readLabelsCsv(file, {
    isDrawn,
    annotator: opts.annotator, provenance: opts.provenance, source: opts.source, frame: opts.frame, inclusionProbability, split: opts.split,
    ...(opts.attest !== undefined ? { attestation: opts.attest } : {}),
    ...(known ? { known: known() } : {}),
    ...(wordings ? { wordings } : {}),
  });
  if (opts.attest !== undefined && !opts.attest.trim()) throw new UsageError("--attest needs a description of who drew the sample and how");
  // A row that names a draw must be one of its drawn items: the gate checks the same, but a wrong id is an input error here.
  const badDraw = csv.labels.flatMap((l, i) => {
    if (l.draw === undefined) return [];
    const d = draws.draws.find((x) => x.draw.id === l.draw);
    if (!d) return [new InputError(file, csv.lines[i], "draw", `no draw ${l.draw} in ${join(dir, "draws")}`)];
    return drawItemOf(d, l, l.inputHash)?.drawn ? [] : [new InputError(file, csv.lines[i], "draw", `draw ${l.draw} did not draw this item (variant, question, rubric, unit and input hash)`)];
  });
  if (badDraw.length) throw new InputErrors(badDraw);
  const conflicts = conflictingRows(file, csv.labels, csv.lines);
  if (conflicts.length) throw new InputErrors(conflicts);
  // Skip rows that change nothing: an identical stored label, or (for rows without their own
  // time) the annotator's current label on that evidence with the same content.
  const book = loadLabels(dir);
  // What every command refuses in a labels folder (a time in the future, a look-alike or invisible annotator name)
  // is refused here, on the CSV's line, before anything is written: written, it would stop every later command.
  // A name that reads like one in use is the CSV's to change, whichever labelled first.
  const incoming = csv.labels.map((l, i) => ({ value: l, file, line: csv.lines[i] ?? 0 }));
  const refused = labelHistoryProblems(incoming);
  const inUse = namesInUse(book.history, draws.draws);
  const named = new Set(refused.filter((p) => p.field === "annotator").map((p) => p.line));
  const asked = new Set<string>();
  for (const l of incoming) {
    const name = l.value.annotator;
    if (asked.has(name)) continue;
    asked.add(name);
    const clash = lookalikeOf(name, inUse);
    if (clash && !named.has(l.line)) {
      const use = name === opts.annotator ? `use --annotator ${shellArg(clash.name)}` : `write ${JSON.stringify(clash.name)} in the annotator column`;
      refused.push(new InputError(file, l.line, "annotator", lookalikeWords(name, clash, use)));
    }
  }
  if (refused.length) throw new InputErrors(refused.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
  const present = storedRepeats(book, csv);
  const fresh = csv.labels.filter((_, i) => present[i] === undefined);
  const result = fresh.length ? appendLabels(dir, fresh) : { labels: [], files: [] };
  const skipped = csv.labels.length - fresh.length;
  const where = result.files.map((f) => relative(process.cwd(), f) || f).join(", ");
  process.stdout.write(`imported ${result.labels.length} label(s)${where ? ` into ${where}` : ""}${skipped ? `; ${skipped} already present, skipped` : ""}\n`);
  const earlier = present.filter((l): l is Label => l?.wordingHash !== undefined && wordings?.has(l.rubric) === true && wordings.get(l.rubric) !== l.wordingHash);
  if (earlier.length) {
    const names = [...new Set(earlier.map((l) => l.rubric))].sort().join(", ");
    process.stdout.write(`note: ${earlier.length} skipped row(s) repeat labels that answered an earlier wording of the question of ${names}, which do not count for today's; to answer today's question, label ${earlier.length === 1 ? "that item" : "those items"} again (ragjudge review)\n`);
  }
  if (csv.ignoredColumns.length) process.stdout.write(`ignored column(s): ${csv.ignoredColumns.join(", ")}\n`);
  const nonGate = fresh.filter((l) => l.frame !== "random").length;
  if (nonGate) process.stdout.write(`note: ${nonGate} label(s) are not from a random frame: they appear in error analysis, never in the trust gate\n`);
  const declared = fresh.filter((l) => l.attestation !== undefined).length;
  if (declared) process.stdout.write(`note: ${declared} label(s) are declared random (attested), not drawn by ragjudge: the trust gate counts them only when the config's trust.attested is true, and every report then says so\n`);
}

/**
 * The stored label each imported row repeats (undefined for a new label): the
 * same label, or, for a row without its own time, the annotator's current
 * answer with the same content. A row without its own wordingHash cell says
 * nothing of the wording it answered, so it repeats the stored label whatever
 * wording that one records (a sheet imported again after the question
 * changed, an export with the cell cleared): stamped with today's wording, it
 * would supersede that label as an answer to a question no one was asked.
 */
function storedRepeats(book: LabelBook, csv: CsvImport): (Label | undefined)[] {
  const key = (l: Label, timed: boolean, worded: boolean) => canonicalJson({ ...l, ...(timed ? {} : { time: undefined }), ...(worded ? {} : { wordingHash: undefined }) });
  const indexes = new Map<string, Map<string, Label>>();
  const index = (timed: boolean, worded: boolean): Map<string, Label> => {
    const name = `${timed}/${worded}`;
    let m = indexes.get(name);
    if (!m) indexes.set(name, (m = new Map((timed ? book.history : currentLabels(book)).map((l) => [key(l.value, timed, worded), l.value]))));
    return m;
  };
  return csv.labels.map((l, i) => {
    const worded = csv.worded[i]!;
    return index(true, worded).get(key(l, true, worded)) ?? (csv.timed[i] ? undefined : index(false, worded).get(key(l, false, worded)));
  });
}

/**
 * Rows of one CSV that give one annotator's item two answers at one time (no
 * time column, or the same time): which counts would be the order of the
 * rows, a choice no one made (a sheet sorted or merged twice). Rows with
 * their own, different times are a history, and stay.
 */
function conflictingRows(file: string, labels: readonly Label[], lines: readonly number[]): InputError[] {
  const first = new Map<string, number>();
  const out: InputError[] = [];
  labels.forEach((l, i) => {
    // one instant written two ways (Z and +01:00, with or without milliseconds) is one time
    const key = JSON.stringify([l.variant, l.question, l.rubric, l.unit, l.inputHash, l.annotator, Date.parse(l.time)]);
    const j = first.get(key);
    if (j === undefined) first.set(key, i);
    else if (labels[j]!.label !== l.label) {
      out.push(new InputError(file, lines[i], "label", `${JSON.stringify(l.label)} for the item ${l.annotator} labelled ${JSON.stringify(labels[j]!.label)} on line ${lines[j]} (same variant, question, rubric, unit, input hash and time): keep one row, or give each its time`));
    }
  });
  return out;
}

/** `ragjudge labels export`'s action (see commands/labels.ts). */
export function labelsExport(opts: Common & { out: string; history?: boolean }): void {
  const { dir, resolved } = context(opts);
  // The CSV must replace nothing ragjudge reads: the labels (and calibration records) exported, nor what the config names.
  const out = outputTarget(opts.out, [{ path: dir, what: "the labels folder", folder: true }, ...(resolved ? configInputs(resolved, ["config"]) : [])]);
  const book = loadLabels(dir);
  writeOutputFile(out, labelsToCsv(book, { history: opts.history }));
  const count = opts.history ? book.history.length : currentLabels(book).length;
  process.stdout.write(`exported ${count} label(s) to ${opts.out}\n`);
}
