/**
 * Every reader against bad bytes (issue: hardening): random bytes, a valid
 * file truncated inside a line, and a line (or document) over its limit, fed
 * to the golden set, chunks, pipeline output, config, rubric YAML, labels
 * JSONL and CSV, qrels, TREC run, review queue and batch output through the
 * real command that reads them, and for the JSON ones a value nested
 * thousands of levels deep. Each case must exit 2 with one line per problem
 * (naming the file, no stack trace, no control character), write nothing,
 * and keep memory bounded. Seeded (pure-rand), so a failure repeats.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { uniformIntDistribution, xoroshiro128plus, type RandomGenerator } from "pure-rand";
import { describe, expect, it } from "vitest";
import { MAX_DOCUMENT_BYTES, MAX_LINE_CHARS } from "../../src/golden/limits.js";
import { runCliCaptured } from "../helpers/cli.js";
import { fixturePath, ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { exampleCopy } from "../report/helpers.js";
import { entry, workspace } from "../review/helpers.js";

const SEED = 17;
/** Cases of each random kind per reader (plus one over-the-limit case each). */
const CASES = 4;

/** How a valid file of a reader may be cut so that what is left is invalid. */
type Shape = "jsonl" | "trec" | "csv" | "json-document" | "yaml-document";

interface Reader {
  name: string;
  shape: Shape;
  /** The reader's file (rewritten by each case) and its valid content. */
  file: string;
  valid: string;
  /** The command that reads it. */
  args: string[];
  /** The folder whose contents must not change. */
  root: string;
}

let rng: RandomGenerator = xoroshiro128plus(SEED);
function int(lo: number, hi: number): number {
  const [v, next] = uniformIntDistribution(lo, hi, rng);
  rng = next;
  return v;
}

function readers(): Reader[] {
  const ex = exampleCopy();
  const runArgs = ["run", "--config", ex.config, "--quiet", "--no-progress"];
  const golden = join(ex.dir, "golden", "questions.jsonl");
  const chunks = join(ex.dir, "golden", "variants", "bm25-small", "chunks.jsonl");
  const output = join(ex.dir, "golden", "variants", "bm25-small", "output.jsonl");
  const rubric = join(ex.dir, "rubrics", "faithfulness.yaml");
  const labels = join(ex.labels, "asha.jsonl");
  const exampleRun = (name: string, shape: Shape, file: string, valid = readFileSync(file, "utf8")): Reader => ({ name, shape, file, valid, args: runArgs, root: ex.dir });

  const cfgDir = tempDir("ragjudge-prop-config-");
  const config = join(cfgDir, "ragjudge.config.json");

  const trec = tempDir("ragjudge-prop-trec-");
  const qrels = join(trec, "qrels.txt");
  const run = join(trec, "run.txt");
  writeFileSync(qrels, readFileSync(fixturePath("trec", "small", "qrels.txt")));
  writeFileSync(run, readFileSync(fixturePath("trec", "small", "run.txt")));
  const trecArgs = ["retrieval", "--qrels", qrels, "--trec-run", run];

  const csvDir = tempDir("ragjudge-prop-csv-");
  const csv = join(csvDir, "labels.csv");
  const h = "e".repeat(64);
  const csvText = `variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${h},yes\nbm25,q02,faithfulness,answer,${h},no\n`;

  const es = [entry("p1", "One [2]."), entry("p2", "Two.")];
  const w = workspace(es);
  const queueText = readFileSync(w.queue, "utf8");

  const batchDir = tempDir("ragjudge-prop-batch-");
  const batch = join(batchDir, "output.jsonl");
  const batchText = readFileSync(join(ROOT, "test", "judge", "batch", "fixtures", "vllm-output.jsonl"), "utf8");

  return [
    exampleRun("golden set", "jsonl", golden),
    exampleRun("chunks", "jsonl", chunks),
    exampleRun("pipeline output", "jsonl", output),
    { name: "config", shape: "json-document", file: config, valid: readFileSync(ex.config, "utf8"), args: ["run", "--config", config, "--quiet", "--no-progress"], root: cfgDir },
    exampleRun("rubric YAML", "yaml-document", rubric),
    exampleRun("labels JSONL", "jsonl", labels, readFileSync(fixturePath("calibration", "labels", "asha.jsonl"), "utf8")),
    { name: "labels CSV", shape: "csv", file: csv, valid: csvText, args: ["labels", "import", csv, "--annotator", "zed", "--provenance", "human", "--frame", "random", "--labels", join(csvDir, "labels")], root: csvDir },
    { name: "qrels", shape: "trec", file: qrels, valid: readFileSync(qrels, "utf8"), args: trecArgs, root: trec },
    { name: "TREC run", shape: "trec", file: run, valid: readFileSync(run, "utf8"), args: trecArgs, root: trec },
    { name: "review queue", shape: "jsonl", file: w.queue, valid: queueText, args: ["review", w.queue, "--annotator", "asha", "--tty", "--rubrics-dir", w.rubrics, "--labels", w.labels, "--judgments", w.judgments], root: w.dir },
    { name: "batch output", shape: "jsonl", file: batch, valid: batchText, args: ["batch", "import", batch, "--config", ex.config, "--cache-dir", join(batchDir, "cache")], root: batchDir },
  ];
}

/** Random bytes with at least one that is not white space (an all-blank file is a valid empty one for some readers). */
function randomBytes(): Buffer {
  const b = Buffer.alloc(int(1, 3000));
  for (let i = 0; i < b.length; i++) b[i] = int(0, 255);
  b[int(0, b.length - 1)] = int(0x21, 0x7e);
  return b;
}

/** The valid file cut inside one of its lines, so that what is left of that line cannot be valid. */
function truncated(r: Reader): string {
  const text = r.valid;
  if (r.shape === "json-document") return text.slice(0, int(1, text.lastIndexOf("}") - 1));
  if (r.shape === "yaml-document") return text.slice(0, int(1, text.search(/^system:/m)));
  const lines = text.split("\n");
  const candidates = lines.map((l, i) => i).filter((i) => lines[i]!.trim() !== "" && !(r.shape === "csv" && i === 0));
  const i = candidates[int(0, candidates.length - 1)]!;
  const line = lines[i]!;
  let cut: number;
  if (r.shape === "jsonl") cut = int(1, line.length - 1);
  else if (r.shape === "csv") cut = int(line.lastIndexOf(",") + 1, line.length - 1);
  else cut = int(1, line.trimEnd().search(/\S+$/) - 1); // TREC: end before the last field starts
  return [...lines.slice(0, i), line.slice(0, cut)].join("\n") + (int(0, 1) ? "\n" : "");
}

/** The valid file with one line over the per-line limit (a document: the file over its size limit). */
function overLimit(r: Reader): string {
  const extra = int(1, 4096);
  if (r.shape === "json-document") return r.valid + " ".repeat(MAX_DOCUMENT_BYTES + extra);
  if (r.shape === "yaml-document") return r.valid + "#" + "x".repeat(MAX_DOCUMENT_BYTES + extra) + "\n";
  const lines = r.valid.trimEnd().split("\n");
  const huge =
    r.shape === "jsonl" ? `{"id":"${"x".repeat(MAX_LINE_CHARS + extra)}"}`
    : r.shape === "csv" ? `bm25,q09,faithfulness,answer,${"e".repeat(64)},${"y".repeat(MAX_LINE_CHARS + extra)}`
    : "x".repeat(MAX_LINE_CHARS + extra);
  lines.splice(int(r.shape === "csv" ? 1 : 0, lines.length), 0, huge);
  return lines.join("\n") + "\n";
}

/** The valid file with a value nested thousands of levels deep (JSON shapes only): each reader refuses it as bad input, never out of stack. */
function nested(r: Reader): string {
  const depth = int(3000, 20_000);
  const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
  if (r.shape === "json-document") return r.valid.replace(/\}\s*$/, `, "deep": ${deep}}\n`);
  const lines = r.valid.trimEnd().split("\n");
  lines.splice(int(0, lines.length), 0, `{"id": ${deep}}`);
  return lines.join("\n") + "\n";
}

/** Every file under `dir` with its size and modification time. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      out.push(`${relative(dir, p)} ${st.isDirectory() ? "dir" : `${st.size} ${st.mtimeMs}`}`);
    }
  };
  walk(dir);
  return out.sort();
}

// ASCII control characters other than tab, as a regular expression.
const CONTROL = new RegExp("[\\u0000-\\u0008\\u000b-\\u001f\\u007f]");

async function check(r: Reader, content: string | Buffer, kind: string): Promise<void> {
  writeFileSync(r.file, content);
  const before = snapshot(r.root);
  const peak = process.resourceUsage().maxRSS * 1024;
  const res = await runCliCaptured(r.args, { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined });
  const grew = process.resourceUsage().maxRSS * 1024 - peak;
  const where = `${r.name}, ${kind}`;
  expect(res.code, `${where}: exit code\n${res.err}`).toBe(2);
  const lines = res.err.split("\n");
  expect(lines.pop(), where).toBe("");
  expect(lines.length, where).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line, where).toMatch(/^ragjudge: (error: \S.*: .+|\.\.\. and \d+ more problems)$/);
    expect(line.length, where).toBeLessThan(1000);
    expect(CONTROL.test(line), `${where}: control character in ${JSON.stringify(line)}`).toBe(false);
  }
  expect(res.err, where).not.toMatch(/internal error|\n\s+at /);
  expect(lines.some((l) => l.includes(r.file)), `${where}: no line names ${r.file}:\n${res.err}`).toBe(true);
  if (kind === "over the limit") expect(res.err, where).toMatch(/over the limit of|longer than the limit of/);
  expect(snapshot(r.root), `${where}: something was written`).toEqual(before);
  // Far below what an unbounded read of such input costs (a 50 MB line used to take 900 MB).
  const size = typeof content === "string" ? Buffer.byteLength(content) : content.length;
  expect(grew, `${where}: peak memory grew by ${Math.round(grew / 2 ** 20)} MiB`).toBeLessThan(96 * 2 ** 20 + 8 * size);
}

describe("every reader refuses bad bytes with exit 2, one line per problem, nothing written, bounded memory", () => {
  const all = readers();
  for (const r of all) {
    it(`${r.name}`, async () => {
      try {
        await check(r, overLimit(r), "over the limit");
        // a config of 3,000 levels ran out of stack (exit 3); JSONL lines were refused already
        if (r.shape === "json-document" || r.shape === "jsonl") await check(r, nested(r), "nested thousands deep");
        for (let i = 0; i < CASES; i++) await check(r, randomBytes(), `random bytes #${i + 1}`);
        for (let i = 0; i < CASES; i++) await check(r, truncated(r), `truncated #${i + 1}`);
      } finally {
        writeFileSync(r.file, r.valid);
      }
    }, 60_000);
  }

  it("the workspaces are intact afterwards (each reader's valid file reads again)", async () => {
    const r = all[0]!;
    const ok = await runCliCaptured(["validate", "--config", r.args[2]!]);
    expect(ok.code).toBe(0);
    rmSync(join(r.root, "evaluations"), { recursive: true, force: true });
  });
});
