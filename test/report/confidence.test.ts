/**
 * Verdict confidence end to end (issue 14): an LLM judge on the local test
 * server returns token log-probabilities; each verdict's P(yes) reaches
 * judgments.jsonl, calibration (ROC AUC, reliability diagram and ECE, the
 * dev-chosen threshold's held-out kappa) and every report, the reliability
 * diagram drawn as inline SVG in real Chromium; and a review of a recorded
 * draw in uncertain order serves the same items without touching the draw.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evidenceKey } from "../../src/calibration/keys.js";
import { bestThreshold } from "../../src/calibration/stats/index.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Judgment } from "../../src/golden/schema/items.js";
import { runEvaluation, type EvaluationResult } from "../../src/report/evaluation.js";
import { ReviewSession } from "../../src/review/session.js";
import { CHROMIUM_LAUNCH, describeInChromium } from "../helpers/chromium.js";
import { runCliCaptured } from "../helpers/cli.js";
import { labelRandomDraw } from "../helpers/labelling.js";
import { startOpenAIServer, type TestServer } from "../server/openai-server.js";
import { exampleCopy, type ExampleCopy } from "./helpers.js";

const unit = (s: string, salt: string) => createHash("sha256").update(salt + s).digest().readUInt32BE(0) / 2 ** 32;

let server: TestServer;
let copy: ExampleCopy;
let first: EvaluationResult;
let result: EvaluationResult;
const pYesOf = new Map<string, number>();

beforeAll(async () => {
  // A judge whose P(yes) is a function of the prompt; its verdict follows it.
  server = await startOpenAIServer({ script: (r) => {
    const p = 0.02 + 0.96 * unit(r.user, "p");
    return { verdict: p >= 0.5 ? "yes" : "no", pYes: p };
  } });
  copy = exampleCopy((c) => (c.judge = { kind: "openai", model: "lp-judge", baseUrl: server.baseURL, concurrency: 4, logprobs: "auto" }));
  first = await runEvaluation({ config: copy.config, cacheDir: join(copy.dir, "cache") });
  const judgments = join(first.folder, "judgments.jsonl");
  for (const { value: j } of loadJsonl(judgments, Judgment)) if (j.pYes !== undefined) pYesOf.set(evidenceKey(j, j.inputHash), j.pYes);
  // Labels a calibrated judge would earn: yes with probability P(yes).
  const answer = (e: { inputHash: string; variant: string; question: string; rubric: string; unit: string }) => (unit(e.inputHash, "label") < pYesOf.get(evidenceKey(e, e.inputHash))! ? "yes" : "no");
  for (const split of ["heldout", "dev"]) await labelRandomDraw({ config: copy.config, dir: copy.dir, judgments, labels: copy.labels, rubrics: "faithfulness", split, random: 40, answer });
  result = await runEvaluation({ config: copy.config, cacheDir: join(copy.dir, "cache"), evaluationsDir: join(copy.dir, "second") });
}, 180_000);
afterAll(async () => {
  await server?.close();
});

describe("verdict confidence from the LLM judge's log-probabilities", () => {
  it("every LLM verdict of the run carries the P(yes) the server's tokens carry", () => {
    const llm = loadJsonl(join(first.folder, "judgments.jsonl"), Judgment).map((r) => r.value).filter((j) => j.judge === "llm");
    expect(llm.length).toBeGreaterThan(100);
    expect(llm.every((j) => typeof j.pYes === "number")).toBe(true);
    expect(server.requests.every((r) => r.info.body.logprobs === true && r.info.body.top_logprobs === 5)).toBe(true);
  });

  it("calibration reports ROC AUC, the reliability diagram with ECE, and the dev-chosen threshold's held-out kappa", () => {
    const faith = result.report.rubrics.find((r) => r.rubric === "faithfulness")!;
    const c = faith.calibration!.confidence!;
    expect(c.n).toBe(faith.calibration!.n);
    expect(c.auc.auc).toBeGreaterThan(0.6);
    expect(c.auc.nYes + c.auc.nNo).toBe(c.n);
    expect(c.reliability.bins).toHaveLength(10);
    expect(c.reliability.bins.reduce((a, b) => a + b.n, 0)).toBe(c.n);
    expect(c.reliability.ece).toBeGreaterThanOrEqual(0);
    // Chosen on the dev labels alone: recomputing on them gives the same threshold.
    const labels = readdirSync(copy.labels).filter((f) => f.endsWith(".jsonl")).flatMap((f) => readFileSync(join(copy.labels, f), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { split?: string; label: "yes" | "no"; variant: string; question: string; rubric: string; unit: string; inputHash: string }));
    const dev = labels.filter((l) => l.split === "dev").map((l) => ({ score: pYesOf.get(evidenceKey(l, l.inputHash))!, label: l.label }));
    expect(c.threshold.dev.n).toBe(dev.length);
    expect(c.threshold.dev.threshold).toBe(bestThreshold(dev).threshold);
    expect(c.threshold.n).toBe(c.n);
    expect(c.threshold.kappa!.kappa).not.toBeNull();
    const calibrationMd = readFileSync(join(result.folder, "calibration.md"), "utf8");
    expect(calibrationMd).toMatch(/ROC AUC \d\.\d\d \\\[/);
    const md = readFileSync(join(result.folder, "report.md"), "utf8");
    expect(md).toContain("## Verdict confidence");
    expect(md).toMatch(/- threshold P\(yes\) ≥ 0\.\d{3} chosen on \d+ dev labels/);
  });

  it("review --order uncertain serves the draw least certain first, the same items, the draw manifest untouched", async () => {
    const judgments = join(result.folder, "judgments.jsonl");
    const queue = join(copy.dir, "uncertain-queue.jsonl");
    const s = await runCliCaptured(["sample", "--config", copy.config, "--judgments", judgments, "--labels", copy.labels, "--annotator", "asha", "--random", "12", "--rubrics", "correctness", "--split", "heldout", "--out", queue]);
    expect(s.code, s.err).toBe(0);
    const drawsDir = join(copy.labels, "draws");
    const draws = () => readdirSync(drawsDir).sort().map((f) => [f, readFileSync(join(drawsDir, f), "utf8")]);
    const before = draws();
    const queueBefore = readFileSync(queue, "utf8");
    const o = { queueFile: queue, rubricsDir: join(copy.dir, "rubrics"), judgmentsFile: judgments, labelsDir: copy.labels, annotator: "asha" };
    const plain = new ReviewSession(o);
    const ordered = new ReviewSession({ ...o, order: "uncertain" });
    const ids = (r: ReviewSession) => r.entries.map((e) => evidenceKey(e.value, e.value.inputHash));
    expect(ids(ordered)).not.toEqual(ids(plain));
    expect([...ids(ordered)].sort()).toEqual([...ids(plain)].sort());
    const gaps = ids(ordered).map((id) => Math.abs(pYesOf.get(id)! - 0.5));
    expect(gaps).toEqual([...gaps].sort((a, b) => a - b));
    ordered.entries.forEach((e, i) => ordered.answer(i, e.value.inputHash, "yes"));
    expect(draws()).toEqual(before);
    expect(readFileSync(queue, "utf8")).toBe(queueBefore);
  });
});

describeInChromium("The reliability diagram in the HTML report", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch(CHROMIUM_LAUNCH);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("is inline SVG: one visible point per non-empty bin, the diagonal, and the confidence figures beside it", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(pathToFileURL(join(result.folder, "report.html")).href);
    const faith = result.report.rubrics.find((r) => r.rubric === "faithfulness")!;
    const svg = page.locator(`svg[data-chart="reliability-faithfulness-${faith.fingerprint.slice(0, 8)}"]`);
    await svg.scrollIntoViewIfNeeded();
    const box = await svg.boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    expect(box!.height).toBeGreaterThan(200);
    const bins = faith.calibration!.confidence!.reliability.bins.filter((b) => b.n > 0);
    expect(await svg.locator("circle.bin").count()).toBe(bins.length);
    expect(await svg.locator("line.diagonal").count()).toBe(1);
    for (const b of await svg.locator("circle.bin").all()) expect((await b.boundingBox())!.width).toBeGreaterThan(4);
    expect(await svg.locator("circle.bin title").first().textContent()).toMatch(/^P\(yes\) \[0\.\d, [01]\.\d[)\]]: \d+ items?, mean P\(yes\) 0\.\d\d, share labelled yes [01]\.\d\d$/);
    const text = (await page.locator(".confidence").first().textContent())!.replace(/\s+/g, " ");
    expect(text).toMatch(/Verdict confidence.*ROC AUC \d\.\d\d \[.*ECE \d\.\d{3}.*threshold P\(yes\) ≥/);
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(copy.dir, "confidence.png"), clip: (await page.locator(".confidence").first().boundingBox())! });
    await page.close();
  });
});
