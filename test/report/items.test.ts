/**
 * items.jsonl, items.csv and report.md's worst items on the shipped
 * example; then a run whose judge answers with hostile reasons, which must
 * stay text in every Markdown and plain-text output.
 */
import { parse } from "csv-parse/sync";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Judgment } from "../../src/golden/schema/items.js";
import { runEvaluation, type EvaluationResult } from "../../src/report/evaluation.js";
import { ItemRecord } from "../../src/report/items/schema.js";
import { itemsCsvColumns } from "../../src/report/items/csv.js";
import { explorerData } from "../../src/report/html/sections/explorer.js";
import { loadConfig } from "../../src/golden/config.js";
import { itemQueue } from "../../src/review/item-queue.js";
import { DETAIL_LADDER, MARKDOWN_BUDGET, MARKDOWN_TABLE_ROWS, markdownSteps, renderReportMarkdown } from "../../src/report/markdown.js";
import { startOpenAIServer, type TestServer } from "../server/openai-server.js";
import { exampleCopy } from "./helpers.js";

function items(folder: string): ItemRecord[] {
  return readFileSync(join(folder, "items.jsonl"), "utf8").trim().split("\n").map((l) => ItemRecord.parse(JSON.parse(l)));
}

describe("items of the shipped example", () => {
  let run: EvaluationResult;
  beforeAll(async () => {
    const copy = exampleCopy();
    run = await runEvaluation({ config: copy.config, evaluationsDir: copy.evaluations });
  });

  it("items.jsonl: one schema-valid record per question of each variant, agreeing with report.json", () => {
    const all = items(run.folder);
    expect(all).toHaveLength(120);
    // the run checks only each variant's first record against the schema: every line is its own parse, key order included
    for (const line of readFileSync(join(run.folder, "items.jsonl"), "utf8").trim().split("\n")) expect(JSON.stringify(ItemRecord.parse(JSON.parse(line)))).toBe(line);
    for (const v of run.report.variants) {
      const mine = all.filter((i) => i.variant === v.name);
      expect(mine.map((i) => i.question)).toEqual(v.searchOrAnswer.questions.map((q) => q.id));
      expect(mine.map((i) => i.outcome)).toEqual(v.searchOrAnswer.questions.map((q) => q.outcome));
      expect(mine.filter((i) => i.miss).map((i) => [i.question, i.miss!.failure])).toEqual(v.misses.map((m) => [m.question, m.failure]));
    }
  });

  it("the example's misses, read from the text: no chunk-boundary (no anchor is cut, no neighbour holds enough of a question's words)", () => {
    const kinds = (name: string) => Object.fromEntries(run.report.variants.find((v) => v.name === name)!.failures.overall.counts.filter((c) => c.count > 0).map((c) => [c.failure, c.count]));
    // Before the miss analysis read the text, a high-ranking neighbour made 3 misses of each variant chunk-boundary.
    expect(kinds("bm25-small")).toEqual({ "vocabulary-gap": 16, undecided: 1 });
    expect(kinds("hybrid-rerank")).toEqual({ "reranker-demotion": 1, ranking: 2, "vocabulary-gap": 11 });
    const undecided = items(run.folder).find((i) => i.miss?.failure === "undecided")!;
    expect([undecided.variant, undecided.question, undecided.miss!.fix]).toEqual(["bm25-small", "con-14", "hybrid-weights"]);
  });

  it("a generation failure carries the question, answer, context with the anchor's place, reasons and fingerprints", () => {
    const it = items(run.folder).find((i) => i.variant === "hybrid-rerank" && i.question === "fact-01")!;
    expect(it.outcome).toBe("generation-failure");
    expect(it.text).toBe("How many leaves can I carry over to next year?");
    expect(it.answer).toMatch(/\[1\]/);
    expect(it.reference).toMatch(/45 days/);
    const holder = it.context.find((c) => c.anchorAt.length > 0)!;
    expect(holder.relevant).toBe(true);
    const [start, end] = holder.anchorAt[0]!;
    expect(holder.text!.slice(start, end)).toBe(it.anchor!.text);
    expect(it.citations[0]!.chunks).toEqual([it.context[0]!.id]);
    expect(it.context[0]!.cited).toBe(true);
    const correctness = it.rubrics.find((r) => r.rubric === "correctness")!;
    expect(correctness.verdict).toBe("no");
    expect(correctness.units[0]!.reason.length).toBeGreaterThan(10);
    expect(correctness.units[0]!.fingerprint).toBe(run.report.rubrics.find((r) => r.rubric === "correctness")!.fingerprint);
    expect(it.retrieved).toHaveLength(10);
    expect(Object.keys(it.retrieved[0]!.stages)).toEqual(["bm25", "vector", "fused", "reranked"]);
    expect(it.retrieved[0]!.stages.reranked).toBe(1);
    expect(it.review).toMatch(/^ragjudge review --item hybrid-rerank\/fact-01 --annotator [A-Za-z0-9._@+-]+ --judgments \S+judgments\.jsonl --config /);
  });

  it("items.csv opens as one row per item with the documented columns (BOM, quoted line breaks)", () => {
    const text = readFileSync(join(run.folder, "items.csv"), "utf8");
    expect(text.startsWith("\ufeff")).toBe(true);
    const rows = parse(text, { bom: true }) as string[][];
    const rubrics = [...new Set(run.report.rubrics.map((r) => r.rubric))];
    expect(rows[0]).toEqual(itemsCsvColumns(rubrics));
    expect(rows).toHaveLength(121);
    const header = rows[0]!;
    const row = rows.find((r) => r[0] === "hybrid-rerank" && r[1] === "fact-01")!;
    expect(row[header.indexOf("outcome")]).toBe("generation-failure");
    expect(row[header.indexOf("correctness")]).toBe("no");
    expect(row[header.indexOf("correctness reason")]!.length).toBeGreaterThan(10);
  });

  it("report.md lists the worst items of each failure class with question, answer and reason", () => {
    const md = readFileSync(join(run.folder, "report.md"), "utf8");
    expect(md).toContain("## Worst items by failure class");
    expect(md).toMatch(/### hybrid-rerank: 10 generation failures/);
    expect(md).toMatch(/### bm25-small: 18 retrieval failures .*, the 10 worst/);
    expect(md).toMatch(/\| fact-01 \| How many leaves can I carry over to next year\? \| You can carry forward up to 20 days .* \| correctness: /);
  });

  it("report.md's per-question and miss tables show their first 100 rows and say where the rest are", () => {
    const whole = readFileSync(join(run.folder, "report.md"), "utf8");
    const [big, other] = run.report.variants;
    expect(whole).toContain(`<summary>Per question: ${other!.name} (60 questions)</summary>`);
    const report = structuredClone(run.report);
    const v = report.variants[0]!;
    const qs = v.searchOrAnswer.questions;
    v.searchOrAnswer.questions = Array.from({ length: 250 }, (_, i) => ({ ...qs[i % qs.length]!, id: `p${i}` }));
    v.misses = Array.from({ length: 130 }, (_, i) => ({ ...v.misses[i % v.misses.length]!, question: `m${i}` }));
    const md = renderReportMarkdown(report, undefined, { budget: Infinity });
    expect(md).toContain(`<summary>Per question: ${big!.name} (250 questions, the first ${MARKDOWN_TABLE_ROWS})</summary>`);
    expect(md.match(/^\| p\d+ \|/gm)).toHaveLength(MARKDOWN_TABLE_ROWS);
    expect(md).toContain("| p99 |");
    expect(md).not.toContain("| p100 |");
    expect(md).toContain("150 more in items.csv and items.jsonl, one row per question of each variant.");
    expect(md.match(/^\| m\d+ \|/gm)).toHaveLength(MARKDOWN_TABLE_ROWS);
    expect(md).toContain(`(130 of ${v.failures.overall.answerable}, no relevant chunk in the top ${v.failures.k}, the first ${MARKDOWN_TABLE_ROWS})</summary>`);
    expect(md).toContain("30 more in diagnostics.json, every miss with its ranks and evidence.");
    // the other variant, under the bound, is whole
    expect(md).toContain(`<summary>Per question: ${other!.name} (60 questions)</summary>`);
  });

  /** The shipped example with `n` questions and misses per variant (copies of its own rows under new ids), and its items. */
  function grown(n: number) {
    const report = structuredClone(run.report);
    for (const v of report.variants) {
      const qs = v.searchOrAnswer.questions;
      v.searchOrAnswer.questions = Array.from({ length: n }, (_, i) => ({ ...qs[i % qs.length]!, id: `p${i}` }));
      v.misses = Array.from({ length: n }, (_, i) => ({ ...v.misses[i % v.misses.length]!, question: `m${i}` }));
    }
    const all = items(run.folder);
    const grownItems = report.variants.flatMap((v) => Array.from({ length: n }, (_, i) => ({ ...all.filter((it) => it.variant === v.name)[i % 60]!, question: `w${i}` })));
    return { report, items: grownItems };
  }

  /** Rows of the worst-item tables a report shows: for each variant and class, as many as it has, up to `worst`. */
  function worstRows(items: readonly ItemRecord[], worst: number): number {
    const counts = new Map<string, number>();
    for (const it of items) if (["retrieval-failure", "generation-failure", "invented-answer"].includes(it.outcome)) counts.set(`${it.variant}\u0000${it.outcome}`, (counts.get(`${it.variant}\u0000${it.outcome}`) ?? 0) + 1);
    return [...counts.values()].reduce((n, c) => n + Math.min(c, worst), 0);
  }

  it("report.md fits a pull-request comment: the per-item tables and lists shrink to the first step that fits, and the file says so", () => {
    const whole = readFileSync(join(run.folder, "report.md"), "utf8");
    // the shipped example fits whole: no note, every table at its bound
    expect(whole.length).toBeLessThanOrEqual(MARKDOWN_BUDGET);
    expect(whole).not.toContain("so that this file fits");
    const { report, items: its } = grown(400);
    const steps = [...markdownSteps(report, its)];
    expect(steps.map((s) => s.detail)).toEqual(DETAIL_LADDER);
    expect(steps[0]!.text).toBe(renderReportMarkdown(report, its, { budget: Infinity }));
    const md = renderReportMarkdown(report, its);
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_BUDGET);
    // the first step that fits: every step before it is over the budget
    const chosen = steps.findIndex((s) => s.text === md);
    expect(chosen).toBeGreaterThan(0);
    for (const s of steps.slice(0, chosen)) expect(s.text.length).toBeGreaterThan(MARKDOWN_BUDGET);
    const { rows, worst, list } = DETAIL_LADDER[chosen]!;
    expect(md).toContain(`> The per-item tables show their first ${rows} rows, the ${worst} worst items of each failure class and long lists their first ${list} entries, so that this file fits a pull-request comment (64,000 characters). Every row is in items.csv, items.jsonl, diagnostics.json and report.html.`);
    // what the note says is what the tables hold: per question and misses of each variant, the worst items exactly
    expect(md.match(/^\| p\d+ \|/gm)).toHaveLength(2 * rows);
    expect(md.match(/^\| m\d+ \|/gm)).toHaveLength(2 * rows);
    expect(md.match(/^\| w\d+ \|/gm)).toHaveLength(worstRows(its, worst));
    expect(md.match(new RegExp(`, the ${worst} worst$`, "gm"))!.length).toBeGreaterThan(0);
    expect(md).toContain(`${400 - rows} more in items.csv and items.jsonl, one row per question of each variant.`);
    // the sections that are not per item stay whole
    for (const heading of ["## Search or answering", "## Retrieval by kind", "## Pool recall and failure kinds", "## Judge pass rates and trust", "## Gate"]) expect(md).toContain(heading);
  });

  it("report.md's steps with no table rows: counts and where the rows are, the worst items as the step says", () => {
    const { report, items: its } = grown(400);
    const steps = [...markdownSteps(report, its)];
    const at = DETAIL_LADDER.findIndex((d) => d.rows === 0 && d.worst > 0);
    const md = steps[at]!.text;
    expect(md).toContain(`> The per-item tables show no rows, the ${DETAIL_LADDER[at]!.worst} worst items of each failure class`);
    expect(md).not.toMatch(/^\| [pm]\d+ \|/m);
    expect(md.match(/^\| w\d+ \|/gm)).toHaveLength(worstRows(its, DETAIL_LADDER[at]!.worst));
    expect(md).toContain(`Per question: ${report.variants[0]!.name} (400 questions) in items.csv and items.jsonl`);
    expect(md).toMatch(/Misses: \S+ \(400 of \d+, no relevant chunk in the top \d+\) in diagnostics\.json/);
  });

  it("report.md without items: the note names no worst items", () => {
    const { report } = grown(400);
    const md = renderReportMarkdown(report);
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_BUDGET);
    expect(md).toMatch(/^> The per-item tables show their first \d+ rows and long lists/m);
    expect(md).not.toContain("worst items");
  });

  it("report.md's long lists shrink too: input warnings, missing question ids and unsupported claims", () => {
    const { report, items: its } = grown(400);
    report.warnings = Array.from({ length: 2000 }, (_, i) => `golden.jsonl:${i + 1}: warning number ${i} about something long enough to matter in a comment`);
    for (const v of report.variants) v.retrieval.missing = Array.from({ length: 3000 }, (_, i) => `missing-${i}`);
    expect(renderReportMarkdown(report, its, { budget: Infinity }).length).toBeGreaterThan(4 * MARKDOWN_BUDGET);
    const md = renderReportMarkdown(report, its);
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_BUDGET);
    const list = Number(/long lists their first (\d+) entries/.exec(md)![1]);
    expect(md.match(/^- golden\.jsonl:\d+: warning/gm)).toHaveLength(list);
    expect(md).toContain(`<summary>2000 input warnings, the first ${list}</summary>`);
    expect(md).toContain(`${2000 - list} more in validation.json and report.json.`);
    expect(md).toContain(`3000 questions without an output line scored 0: missing-0, `);
    expect(md).toContain(`missing-${list - 1} and ${3000 - list} more (report.json lists them all)`);
    expect(md).not.toContain(`missing-${list},`);
  });

  it("report.md that cannot fit even without its per-item tables says so and what to post instead", () => {
    const { report, items: its } = grown(400);
    const md = renderReportMarkdown(report, its, { budget: 5000 });
    expect(md).toMatch(/^> This file is longer than a pull-request comment holds \(5,000 characters\) even with its per-item tables and lists left out: post summary\.txt instead/m);
    expect(md).not.toContain("so that this file fits");
    expect(md).toBe([...markdownSteps(report, its, 5000)].at(-1)!.text.replace(/^> .*$/m, md.match(/^> .*$/m)![0]));
    expect(md).not.toMatch(/^\| [pmw]\d+ \|/m);
    expect(md).toContain(`Per question: ${report.variants[0]!.name} (400 questions) in items.csv and items.jsonl`);
    expect(md).toContain("## Gate");
  });
});

describe("hostile judge reasons stay text in report.md, calibration.md, summary.txt and items.csv", () => {
  const HOSTILE = "</td></tr></table><img src=x onerror=alert(1)> | *bold* [link](http://x.example) =cmd\u001b[2J\nsecond line";
  const FORMULA = "=HYPERLINK(\"http://x.example\",\"open\")";
  let server: TestServer;
  let run: EvaluationResult;
  let first: EvaluationResult;
  beforeAll(async () => {
    server = await startOpenAIServer({
      script: (r) => (r.index === 7 ? { status: 400, message: `bad request ${HOSTILE}` } : r.index % 2 === 0 ? { verdict: "no", reason: HOSTILE } : { verdict: "yes", reason: FORMULA }),
    });
    const copy = exampleCopy((c) => (c.judge = { kind: "openai", model: "judge-model", baseUrl: server.baseURL, concurrency: 4, maxRetries: 0 }));
    const cacheDir = join(copy.dir, "cache");
    first = await runEvaluation({ config: copy.config, cacheDir, evaluationsDir: copy.evaluations });
    // Labels that disagree with some verdicts, so calibration.md lists disagreements with the judge's reasons.
    const judged = readFileSync(join(first.folder, "judgments.jsonl"), "utf8").trim().split("\n").map((l) => Judgment.parse(JSON.parse(l))).filter((j) => j.judge === "llm" && j.verdict !== "error");
    const labels = judged.slice(0, 30).map((j, i) => ({ variant: j.variant, question: j.question, rubric: j.rubric, unit: j.unit, inputHash: j.inputHash, label: i % 2 ? j.verdict : j.verdict === "yes" ? "no" : "yes", annotator: "test-author", provenance: "author", frame: "random", time: "2026-11-30T10:00:00Z" }));
    writeFileSync(join(copy.labels, "test-author.jsonl"), labels.map((l) => JSON.stringify(l)).join("\n") + "\n");
    run = await runEvaluation({ config: copy.config, cacheDir, evaluationsDir: copy.evaluations });
  });
  afterAll(async () => {
    await server?.close();
  });

  for (const file of ["report.md", "calibration.md", "summary.txt"]) {
    it(`${file}: no raw tag, no control character, no line a reason starts`, () => {
      const text = readFileSync(join(run.folder, file), "utf8");
      expect(text).not.toMatch(/<\/td>|<img|<\/table>/);
      expect(text).not.toContain("\u001b");
      expect(text).not.toMatch(/^second line/m);
      if (file !== "summary.txt") {
        expect(text).toContain("&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;img src=x onerror=alert(1)&gt; \\| \\*bold\\*");
      }
    });
  }

  it("report.md shows the reason in the worst items; summary.txt names the error cause on one line", () => {
    expect(readFileSync(join(run.folder, "report.md"), "utf8")).toMatch(/\| faithfulness: &lt;\/td&gt;/);
    // The first run met one HTTP 400 whose message holds the hostile text (the second retried it).
    const summary = readFileSync(join(first.folder, "summary.txt"), "utf8");
    expect(summary).not.toContain("\u001b");
    expect(summary).toMatch(/error x\d+: .*bad request <\/td><\/tr><\/table><img.*\uFFFD\[2J second line/);
  });

  it("items.csv keeps the reason verbatim in one cell and neutralises a formula", () => {
    const rows = parse(readFileSync(join(run.folder, "items.csv"), "utf8"), { bom: true }) as string[][];
    const col = rows[0]!.indexOf("faithfulness reason");
    const reasons = rows.slice(1).map((r) => r[col]!).filter((r) => r.includes("</td>"));
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons[0]).toBe(HOSTILE);
    const formula = rows.slice(1).flat().filter((c) => /^[=+\-@]/.test(c));
    expect(formula).toEqual([]);
    expect(rows.slice(1).flat()).toContain(`'${FORMULA}`);
  });
});

describe("review commands in items.jsonl", () => {
  it("every printed command queues its item; an item decided wholly by rule (no output line) gets none, in the explorer and items.csv too", async () => {
    const copy = exampleCopy();
    const output = join(copy.dir, "golden", "variants", "bm25-small", "output.jsonl");
    const lines = readFileSync(output, "utf8").trim().split("\n");
    const dropped = (JSON.parse(lines[0]!) as { id: string }).id;
    writeFileSync(output, lines.slice(1).join("\n") + "\n");
    const run = await runEvaluation({ config: copy.config, evaluationsDir: copy.evaluations });
    const all = items(run.folder);
    const missing = all.find((i) => i.variant === "bm25-small" && i.question === dropped)!;
    expect(missing.rubrics.flatMap((r) => r.units).every((u) => u.judge === "rule")).toBe(true);
    expect(missing.review).toBeNull();
    const printed = all.filter((i) => i.review !== null);
    expect(printed.length).toBeGreaterThan(100);
    for (const it of printed) {
      // the command's own words (the example's ids and temp paths need no shell quoting)
      const words = it.review!.split(" ");
      const flag = (name: string) => words[words.indexOf(name) + 1]!;
      expect(words.slice(0, 2)).toEqual(["ragjudge", "review"]);
      const queue = itemQueue(loadConfig(resolve(flag("--config"))), { item: flag("--item"), judgmentsFile: resolve(flag("--judgments")) });
      expect(queue.length, it.review!).toBeGreaterThan(0);
    }
    // items.csv leaves the cell empty; the explorer marks the item as having no command
    const rows = parse(readFileSync(join(run.folder, "items.csv"), "utf8"), { bom: true }) as string[][];
    const row = rows.find((r) => r[0] === "bm25-small" && r[1] === dropped)!;
    expect(row[rows[0]!.indexOf("review")]).toBe("");
    const data = explorerData(all);
    expect((data.evidence.items[all.indexOf(missing)] as { rev: unknown }).rev).toBe(false);
    expect(data.evidence.review).toContain("{item}");
  }, 60_000);
});
