/**
 * `npm run bench:report`: the HTML report's item explorer at scale. Builds a
 * seeded evaluation of 10,000 questions x 2 variants (bench/report-data.ts)
 * with `runEvaluation` (the baseline judge, as `ragjudge run` on the shipped
 * example), then opens its report.html in headless Chromium and times:
 *
 * - opening: navigation start to the load event (the inline explorer script
 *   has parsed the rows and rendered the first page by then), beside the
 *   peer measured in the same invocation: the same report rendered without
 *   the explorer (what report.html was before it), interleaved AB BA ...;
 * - filtering, sorting and opening an item: from the change to the next
 *   frame, for an outcome filter, a variant filter, a rubric-verdict filter,
 *   a two-word text search, a sort by rank, and the first and a second item
 *   opened (the first inflates the chunk table and its evidence block; for
 *   openings the first figure is "until the detail shows").
 *
 * Prints the file sizes (report.html with and without the explorer,
 * items.jsonl, items.csv), every run and the medians, with the targets
 * (open < 3 s, filter < 200 ms). Timings are printed, never asserted.
 *
 * The evaluation is kept in BENCH_DIR (default os.tmpdir()/ragjudge-bench-report)
 * and reused while its shape and the source code (src/, hashed) are the same;
 * `--clean` deletes it.
 * Environment: BENCH_RUNS (default 5), BENCH_QUESTIONS (default 10000),
 * BENCH_DIR, RAGJUDGE_CHROMIUM (default /usr/bin/chromium).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { loadEvaluation } from "../src/report/compare/load.js";
import { runEvaluation } from "../src/report/evaluation.js";
import { renderHtml } from "../src/report/html/page.js";
import { REPORT_SCHEMA } from "../src/report/schema.js";
import { DEFAULT_REPORT_SHAPE, writeReportData, type ReportShape } from "./report-data.js";
import { median, ratio } from "./retrieval-measure.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "..", "..");
const CHROMIUM = process.env.RAGJUDGE_CHROMIUM ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-quic", "--disable-sync"];
const OPEN_TARGET_MS = 3000;
const FILTER_TARGET_MS = 200;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}=${raw}: expected a whole number of at least 1`);
  return n;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (x: number | null) => (x === null ? "n/a" : `${x.toFixed(0)} ms`);

/** SHA-256 over every source file, so a kept evaluation is reused only by the code that wrote it. */
function sourceHash(dir = join(ROOT, "src")): string {
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else { h.update(p); h.update(readFileSync(p)); }
    }
  };
  walk(dir);
  return h.digest("hex");
}

/** The evaluation folder for this shape: reused when its manifest matches (same shape, same source), else generated and run. */
async function evaluation(dir: string, shape: ReportShape): Promise<string> {
  const manifest = join(dir, "manifest.json");
  const want = JSON.stringify({ shape, schema: REPORT_SCHEMA, source: sourceHash() });
  if (existsSync(manifest)) {
    const m = JSON.parse(readFileSync(manifest, "utf8")) as { key: string; folder: string };
    if (m.key === want && existsSync(join(m.folder, "report.json"))) {
      console.log(`reusing ${m.folder} (delete it, or run with --clean, to regenerate)`);
      return m.folder;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  let t = Date.now();
  const config = writeReportData(dir, join(ROOT, "rubrics"), shape);
  console.log(`generated ${shape.questions} questions x 2 variants over ${shape.docs} documents in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  t = Date.now();
  const run = await runEvaluation({ config, log: () => {} });
  console.log(`ragjudge run (baseline judge, ${run.report.judgeTotals.judgments} verdicts) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  writeFileSync(manifest, JSON.stringify({ key: want, folder: run.folder }));
  return run.folder;
}

interface OpenSample { wall: number; load: number }

async function open(browser: Browser, file: string): Promise<OpenSample> {
  const ctx = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
  const page = await ctx.newPage();
  const t0 = Date.now();
  await page.goto(pathToFileURL(file).href, { waitUntil: "load", timeout: 120_000 });
  const wall = Date.now() - t0;
  const load = (await page.evaluate(`performance.getEntriesByType("navigation")[0].loadEventEnd`)) as number;
  await ctx.close();
  return { wall, load };
}

/** The explorer operations timed after opening, each from the change to the next frame. */
const OPS = ["outcome filter", "variant filter", "rubric filter", "text search", "sort by rank", "open first item", "open second item"] as const;
type Op = (typeof OPS)[number];

/** Each operation's [handler with layout, to the next frame] in ms. */
async function operate(browser: Browser, file: string): Promise<Record<Op, [number, number]>> {
  const ctx = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
  const page = await ctx.newPage();
  await page.goto(pathToFileURL(file).href, { waitUntil: "load", timeout: 120_000 });
  // A string, not a function: tsx would wrap named functions in a helper the page does not have.
  const out = (await page.evaluate(`(async () => {
    const ops = ${JSON.stringify(OPS)};
    const frame = (act) => new Promise((res) => {
      const t = performance.now();
      act();
      void document.body.offsetHeight;
      const sync = performance.now() - t;
      requestAnimationFrame(() => setTimeout(() => res([sync, performance.now() - t]), 0));
    });
    const set = (sel, value, ev) => () => {
      const e = document.querySelector(sel);
      e.value = value;
      e.dispatchEvent(new Event(ev, { bubbles: true }));
    };
    const r = {};
    r[ops[0]] = await frame(set('select[name="outcome"]', "generation-failure", "change"));
    r[ops[1]] = await frame(set('select[name="variant"]', "hybrid-rerank", "change"));
    r[ops[2]] = await frame(set('select[name="r.correctness"]', "no", "change"));
    await frame(set('select[name="r.correctness"]', "", "change"));
    r[ops[3]] = await frame(set('input[name="q"]', "handbook meaning", "input"));
    r[ops[4]] = await frame(() => document.querySelector('th[data-sort="rank"]').click());
    // Opening inflates the item's evidence block first: timed until its detail shows, then to the next frame.
    const opened = (n) => new Promise((res) => {
      const b = document.querySelectorAll("#rj-table button.qid")[n];
      const id = b.textContent;
      const t = performance.now();
      b.click();
      const wait = () => {
        const h = document.querySelector("#rj-detail h3");
        if (h && h.textContent.includes(id)) {
          const shown = performance.now() - t;
          requestAnimationFrame(() => setTimeout(() => res([shown, performance.now() - t]), 0));
        } else setTimeout(wait, 1);
      };
      wait();
    });
    r[ops[5]] = await opened(0);
    r[ops[6]] = await opened(1);
    return r;
  })()`)) as Record<Op, [number, number]>;
  await ctx.close();
  return out;
}

async function main(): Promise<void> {
  const dir = process.env.BENCH_DIR ?? join(tmpdir(), "ragjudge-bench-report");
  if (process.argv.includes("--clean") || process.env.BENCH_CLEAN === "1") {
    rmSync(dir, { recursive: true, force: true });
    console.log(`deleted ${dir}`);
    return;
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install Chromium (apt-get install -y chromium) or set RAGJUDGE_CHROMIUM`);
  const questions = positiveInt("BENCH_QUESTIONS", DEFAULT_REPORT_SHAPE.questions);
  const runs = positiveInt("BENCH_RUNS", 5);
  const shape: ReportShape = { ...DEFAULT_REPORT_SHAPE, questions, docs: Math.max(20, Math.round((DEFAULT_REPORT_SHAPE.docs * questions) / DEFAULT_REPORT_SHAPE.questions)) };
  console.log(`bench:report: ${questions} questions x 2 variants, ${runs} interleaved runs; ${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
  const folder = await evaluation(dir, shape);
  const html = join(folder, "report.html");
  const plain = join(folder, "report-without-explorer.html");
  writeFileSync(plain, renderHtml(loadEvaluation(folder).report));
  const size = (f: string) => statSync(join(folder, f)).size;
  console.log(`sizes: report.html ${mb(size("report.html"))} (without the explorer: ${mb(size("report-without-explorer.html"))}), items.jsonl ${mb(size("items.jsonl"))}, items.csv ${mb(size("items.csv"))}, report.md ${mb(size("report.md"))}`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const explorer: OpenSample[] = [];
  const peer: OpenSample[] = [];
  const ops: Record<Op, [number, number]>[] = [];
  try {
    for (let r = 0; r < runs; r++) {
      const order = r % 2 === 0 ? ["explorer", "peer"] : ["peer", "explorer"];
      for (const which of order) {
        const s = await open(browser, which === "explorer" ? html : plain);
        (which === "explorer" ? explorer : peer).push(s);
        console.log(`  run ${r + 1} ${which === "explorer" ? "report.html          " : "without the explorer "}: load ${ms(s.load)} (wall ${ms(s.wall)})`);
      }
      const o = await operate(browser, html);
      ops.push(o);
      console.log(`  run ${r + 1} explorer (handler and layout / to the next frame): ${OPS.map((k) => `${k} ${ms(o[k][0])} / ${ms(o[k][1])}`).join(", ")}`);
    }
  } finally {
    await browser.close();
  }
  const mLoad = median(explorer.map((s) => s.load));
  const mPeer = median(peer.map((s) => s.load));
  console.log("");
  console.log(`open (median of ${runs}): report.html ${ms(mLoad)}, without the explorer ${ms(mPeer)}; ratio ${ratio(mLoad, mPeer)}; target < ${OPEN_TARGET_MS} ms: ${mLoad !== null && mLoad < OPEN_TARGET_MS ? "met" : "NOT met"}`);
  for (const k of OPS) {
    const sync = median(ops.map((o) => o[k][0]));
    const m = median(ops.map((o) => o[k][1]));
    const isFilter = !k.startsWith("open");
    console.log(`${k} (medians): handler and layout ${ms(sync)}, to the next frame ${ms(m)}${isFilter ? `; target < ${FILTER_TARGET_MS} ms: ${m !== null && m < FILTER_TARGET_MS ? "met" : "NOT met"}` : ""}`);
  }
}

main().catch((e: unknown) => {
  console.error(`bench:report: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
