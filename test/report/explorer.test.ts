/**
 * The HTML report's item explorer in headless Chromium: filters, sorting,
 * the view in the address fragment, opening an item (the "done
 * when": a generation failure of the shipped example with its question,
 * answer, context with the anchor marked and the judge's reason), the
 * keyboard, the page with script disabled, and script payloads in every text
 * field staying inert.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runEvaluation, type EvaluationResult } from "../../src/report/evaluation.js";
import { ItemRecord } from "../../src/report/items/schema.js";
import { CHROMIUM_LAUNCH, describeInChromium } from "../helpers/chromium.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { startOpenAIServer, type TestServer } from "../server/openai-server.js";
import { exampleCopy } from "./helpers.js";

describeInChromium("HTML report's item explorer", explorerTests);

/** A payload that would change the title, load an image or run code if any of it became markup. */
const XSS = `<img src=x onerror="document.title='owned'"><script>document.title='owned'</script>`;

function explorerTests(): void {
  let browser: Browser;
  let example: EvaluationResult;
  let hostile: { run: EvaluationResult; server: TestServer };

  beforeAll(async () => {
    const copy = exampleCopy();
    [browser, example, hostile] = await Promise.all([chromium.launch(CHROMIUM_LAUNCH), runEvaluation({ config: copy.config, evaluationsDir: copy.evaluations }), hostileEvaluation()]);
  });
  afterAll(async () => {
    await browser?.close();
    await hostile?.server.close();
  });

  async function open(file: string, hash = "", options: Parameters<Browser["newContext"]>[0] = {}): Promise<{ page: Page; ctx: BrowserContext; problems: string[]; requests: string[] }> {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
    const page = await ctx.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href + hash);
    return { page, ctx, problems, requests };
  }

  const report = () => join(example.folder, "report.html");
  const rowIds = (page: Page) => page.locator("#rj-table tbody button.qid").allTextContents();
  const column = async (page: Page, header: string) => {
    const headers = await page.locator("#rj-table thead th").allTextContents();
    const i = headers.indexOf(header);
    return page.locator(`#rj-table tbody tr td:nth-child(${i + 1})`).allTextContents();
  };

  it("filters by variant, outcome, kind and rubric verdict; the fragment holds the view, and a pasted link reopens it", async () => {
    const { page, ctx, problems, requests } = await open(report());
    await page.locator('select[name="variant"]').selectOption("hybrid-rerank");
    await page.locator('select[name="outcome"]').selectOption("generation-failure");
    const expected = example.report.variants.find((v) => v.name === "hybrid-rerank")!.searchOrAnswer.questions.filter((q) => q.outcome === "generation-failure");
    expect((await rowIds(page)).sort()).toEqual(expected.map((q) => q.id).sort());
    await page.locator('select[name="kind"]').selectOption("factual");
    expect((await rowIds(page)).sort()).toEqual(expected.filter((q) => q.kind === "factual").map((q) => q.id).sort());
    expect(await page.locator("#rj-status").textContent()).toMatch(new RegExp(`^${expected.filter((q) => q.kind === "factual").length} of 120 items`));
    const hash = await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash);
    expect(hash).toBe("#explorer?variant=hybrid-rerank&outcome=generation-failure&kind=factual");
    await page.locator('select[name="r.correctness"]').selectOption("yes");
    expect(await rowIds(page)).toEqual([]);
    await page.locator('select[name="r.correctness"]').selectOption("");
    // The same link in a fresh tab: the same rows and the same controls.
    const again = await open(report(), hash);
    expect(await rowIds(again.page)).toEqual(await rowIds(page));
    expect(await again.page.locator('select[name="outcome"]').inputValue()).toBe("generation-failure");
    await page.locator('input[name="q"]').fill("diwali DEPLOY");
    expect(await rowIds(page)).toEqual(["fact-14"]);
    await page.locator("#rj-reset").click();
    expect(await page.locator("#rj-table tbody tr").count()).toBe(50);
    expect(problems).toEqual([]);
    expect(requests).toEqual([pathToFileURL(report()).href]);
    await ctx.close();
    await again.ctx.close();
  });

  it("sorts by any column, both ways, and pages through every item", async () => {
    const { page, ctx, problems } = await open(report(), "#explorer?variant=bm25-small");
    await page.locator('#rj-table th[data-sort="rank"]').click();
    const ranks = (await column(page, "first relevant")).map((r) => (r === "—" ? Infinity : Number(r)));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(await page.locator('#rj-table th[data-sort="rank"]').getAttribute("aria-sort")).toBe("ascending");
    await page.locator('#rj-table th[data-sort="rank"]').click();
    expect(await page.locator('#rj-table th[data-sort="rank"]').getAttribute("aria-sort")).toBe("descending");
    expect((await column(page, "first relevant"))[0]).toBe("—");
    await page.locator('#rj-table th[data-sort="question"]').click();
    const ids = await rowIds(page);
    expect(ids).toEqual([...ids].sort());
    expect(await page.locator("#rj-page").textContent()).toBe("page 1 of 2");
    await page.locator("#rj-next").click();
    expect(await page.locator("#rj-table tbody tr").count()).toBe(10);
    expect(await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toBe("#explorer?variant=bm25-small&sort=question&page=1");
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it("opens a generation failure of the shipped example: question, answer with linked citations, context with the anchor marked, stages, the judge's reasons, the review command", async () => {
    const { page, ctx, problems } = await open(report(), "#explorer?variant=hybrid-rerank&outcome=generation-failure");
    await page.locator("#rj-table button.qid", { hasText: "fact-01" }).click();
    const detail = page.locator("#rj-detail");
    await expect.poll(() => detail.isVisible()).toBe(true);
    const text = (await detail.textContent())!;
    const item = readFileSync(join(example.folder, "items.jsonl"), "utf8").trim().split("\n").map((l) => ItemRecord.parse(JSON.parse(l))).find((i) => i.variant === "hybrid-rerank" && i.question === "fact-01")!;
    expect(text).toContain("How many leaves can I carry over to next year?");
    expect(text).toContain(item.reference!);
    expect(text).toContain(item.answer!.replace(/\s+/g, " ").slice(0, 40));
    expect(await detail.locator(".chunk mark.anchor").allTextContents()).toEqual([item.anchor!.text]);
    expect(await detail.locator(".chunk").count()).toBe(5);
    for (const u of item.rubrics.flatMap((r) => r.units)) expect(text).toContain(u.reason);
    expect(await detail.locator("code[title]").first().getAttribute("title")).toMatch(/^[0-9a-f]{64}$/);
    expect(text).toContain("bm25vectorfusedreranked");
    expect(await detail.locator("pre code").textContent()).toBe(item.review);
    // A citation marker points at its chunk: clicking it marks the chunk.
    await detail.locator("button.cite").first().click();
    await expect.poll(() => detail.locator(".chunk.flash").count()).toBe(1);
    expect(await detail.locator(".chunk.flash .cid").textContent()).toBe(item.citations[0]!.chunks[0]);
    expect(await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toBe("#explorer?variant=hybrid-rerank&outcome=generation-failure&open=hybrid-rerank%2Ffact-01");
    // The link with `open` reopens the item.
    const again = await open(report(), "#explorer?variant=hybrid-rerank&outcome=generation-failure&open=hybrid-rerank%2Ffact-01");
    await expect.poll(() => again.page.locator("#rj-detail h3").textContent()).toContain("hybrid-rerank · fact-01");
    expect(problems).toEqual([]);
    await ctx.close();
    await again.ctx.close();
  });

  it("keyboard: / searches, j and k move, Enter opens, Esc closes", async () => {
    const { page, ctx, problems } = await open(report(), "#explorer?variant=hybrid-rerank&sort=question");
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("/");
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }).document.activeElement.getAttribute("name"))).toBe("q");
    await page.keyboard.type("fact-0");
    await page.keyboard.press("Escape");
    const ids = await rowIds(page);
    expect(ids.slice(0, 3)).toEqual(["fact-01", "fact-02", "fact-03"]);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    expect(await page.locator("#rj-table tr.sel button.qid").textContent()).toBe("fact-02");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#rj-detail h3").textContent()).toContain("hybrid-rerank · fact-02");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator("#rj-detail").isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it("reads with script disabled: its first rows and every other table stay, no dead controls", async () => {
    const { page, ctx } = await open(report(), "", { javaScriptEnabled: false });
    expect(await page.locator("#rj-table tbody tr").count()).toBe(100);
    expect((await column(page, "outcome"))[0]).toBe("retrieval failure");
    expect(await page.locator("#rj-filters").isVisible()).toBe(false);
    expect(await page.locator("noscript").count()).toBe(1);
    expect(await page.locator("section#search-or-answer table").count()).toBeGreaterThan(2);
    expect(await page.locator("section#misses table").count()).toBe(2);
    await ctx.close();
  });

  it("a script payload in every text field stays text: ids, names, question, reference, answer, chunk text and heading, tags, kind, reasons, notes", async () => {
    const file = join(hostile.run.folder, "report.html");
    const { page, ctx, problems } = await open(file);
    const rows = await page.locator("#rj-table tbody tr").count();
    expect(rows).toBe(2);
    const details: string[] = [];
    for (let i = 0; i < rows; i++) {
      const id = (await page.locator("#rj-table tbody button.qid").nth(i).textContent())!;
      await page.locator("#rj-table tbody button.qid").nth(i).click();
      await expect.poll(() => page.locator("#rj-detail h3").textContent()).toContain(id);
      const found = await page.evaluate(() => {
        const d = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number }; title: string; getElementById(id: string): { textContent: string } } }).document;
        return { imgs: d.querySelectorAll("img").length, code: d.querySelectorAll("script:not([type])").length, title: d.title, detail: d.getElementById("rj-detail").textContent };
      });
      expect(found.imgs).toBe(0);
      expect(found.code).toBe(1);
      expect(found.title).not.toBe("owned");
      expect(found.detail).toContain(XSS);
      details.push(found.detail);
    }
    const text = (await page.locator("#explorer").textContent())!;
    for (const what of [`q-${XSS}`, `kind ${XSS}`, `tag ${XSS}`, `v-${XSS}`]) expect(text).toContain(what);
    const all = details.join("\n");
    for (const what of [`question ${XSS}`, `reference ${XSS}`, `answer ${XSS}`, `heading ${XSS}`, `Policy text ${XSS}`, `reason ${XSS}`, `note ${XSS}`]) expect(all).toContain(what);
    expect(problems).toEqual([]);
    await ctx.close();
  });
}

/**
 * A run in which the payload sits in every text field the explorer shows:
 * question id, variant name, question, reference, kind, tag, chunk text and
 * heading, the answer, the judge's reasons (from the local test server) and
 * a label's note.
 */
async function hostileEvaluation(): Promise<{ run: EvaluationResult; server: TestServer }> {
  const server = await startOpenAIServer({ script: (r) => ({ verdict: r.index % 2 ? "yes" : "no", reason: `reason ${XSS}` }) });
  const dir = tempDir("ragjudge-xss-");
  const w = (name: string, rows: unknown[]) => writeFileSync(join(dir, name), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const anchor = `unused leave ${XSS} cannot be carried forward to next year`;
  w("golden.jsonl", [
    { id: `q-${XSS}`, question: `question ${XSS}?`, anchor: { doc: "hr", text: anchor }, reference: `reference ${XSS}`, kind: `kind ${XSS}`, tags: [`tag ${XSS}`] },
    { id: "q-none", question: `nothing ${XSS}?`, answerable: false, kind: `kind ${XSS}`, tags: [`tag ${XSS}`] },
  ]);
  w("chunks.jsonl", [
    { id: "hr#0", doc: "hr", heading: `heading ${XSS}`, text: `Policy text ${XSS}. ${anchor}.` },
    { id: "hr#1", doc: "hr", heading: `heading ${XSS}`, text: `More text ${XSS}.` },
  ]);
  w("output.jsonl", [
    { id: `q-${XSS}`, retrieved: ["hr#1", "hr#0"], context: ["hr#1", "hr#0"], answer: `answer ${XSS} [2]. More [1].` },
    { id: "q-none", retrieved: ["hr#1"], context: ["hr#1"], answer: `invented ${XSS}` },
  ]);
  const config = join(dir, "ragjudge.config.json");
  writeFileSync(config, JSON.stringify({
    name: `xss ${XSS}`, golden: "golden.jsonl",
    variants: [{ name: `v-${XSS}`, output: "output.jsonl", chunks: "chunks.jsonl" }],
    rubricsDir: join(ROOT, "rubrics"), labels: "labels",
    judge: { kind: "openai", model: "judge-model", baseUrl: server.baseURL, concurrency: 2 },
  }));
  const first = await runEvaluation({ config, cacheDir: join(dir, "cache") });
  const j = readFileSync(join(first.folder, "judgments.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, string>)
    .find((x) => x.rubric === "correctness" && x.judge === "llm")!;
  mkdirSync(join(dir, "labels"), { recursive: true });
  writeFileSync(join(dir, "labels", "asha.jsonl"), JSON.stringify({ variant: j.variant, question: j.question, rubric: j.rubric, unit: j.unit, inputHash: j.inputHash, label: "yes", annotator: "asha", provenance: "author", frame: "random", note: `note ${XSS}`, time: "2026-11-30T10:00:00Z" }) + "\n");
  const run = await runEvaluation({ config, cacheDir: join(dir, "cache") });
  return { run, server };
}
