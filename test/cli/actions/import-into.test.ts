import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp.js";

/**
 * `ragjudge import --into CONFIG`: a second pipeline's answers to the same
 * questions become another variant of the project the first import made,
 * paired with its golden set by question text (or id), and the next
 * commands it prints (validate, run, compare) work as printed.
 */
const PASSAGES = ["Unused earned leave can be carried forward up to 45 days.", "Salaries are credited on the last working day of the month.", "Economy class is the default for flights under six hours.", "Laptops are replaced every four years."];
const ROWS = [
  { question: "How much leave carries over?", gold: 0 },
  { question: "When is salary paid?", gold: 1 },
  { question: "Which class for short flights?", gold: 2 },
  { question: "How often are laptops replaced?", gold: 3 },
];
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

function firstPipeline(file: string): void {
  writeFileSync(file, jsonl(ROWS.map((r) => ({ question: r.question, contexts: [PASSAGES[r.gold]!], answer: "From the first pipeline [1].", reference_contexts: [PASSAGES[r.gold]!] }))));
}

/** The second pipeline's export: other passages, in another row order, with no ids and no golden columns. */
function secondPipeline(file: string, extra: unknown[] = []): void {
  writeFileSync(file, jsonl([...ROWS].reverse().map((r) => ({ user_input: `  ${r.question.toLowerCase()}`, retrieved_contexts: [PASSAGES[(r.gold + 1) % 4]!], response: "From the second pipeline [1]." }) as unknown).concat(extra)));
}

describe("ragjudge import --into CONFIG", () => {
  it("adds a second pipeline as another variant, paired by question text, its comments kept; the printed next commands work", async () => {
    const dir = tempDir("ragjudge-into-");
    firstPipeline(join(dir, "a.jsonl"));
    secondPipeline(join(dir, "b.jsonl"));
    const proj = join(dir, "proj");
    expect((await runCliCaptured(["import", "ragas", join(dir, "a.jsonl"), "--out", proj, "--variant", "first"])).code).toBe(0);
    const config = join(proj, "ragjudge.config.json");
    // --out onto the project names --into as the way to add to it
    const out = await runCliCaptured(["import", "ragas", join(dir, "b.jsonl"), "--out", proj, "--variant", "second"]);
    expect(out.code).toBe(2);
    expect(out.err).toContain(`(to add this file as another variant of that project: --into ${config} instead of --out)`);

    const into = await runCliCaptured(["import", "ragas", join(dir, "b.jsonl"), "--into", config, "--variant", "second"]);
    expect(into.code, into.err).toBe(0);
    expect(into.out).toContain("4 answers to questions of");
    expect(into.out).toContain("paired by question text");
    const text = readFileSync(config, "utf8");
    expect(text).toContain("// ragjudge config: JSON with comments.");
    expect(text).toMatch(/"name": "second",\s*"output": "outputs\/second\.output\.jsonl"/);
    const written = readFileSync(join(proj, "outputs", "second.output.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; answer: string });
    const golden = readFileSync(join(proj, "golden", "questions.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; question: string });
    // the last row of the file answers the golden set's first question: paired by text, not by row
    expect(written.find((o) => o.id === golden[0]!.id)!.answer).toBe("From the second pipeline [1].");
    expect(written.map((o) => o.id).sort()).toEqual(golden.map((q) => q.id).sort());

    const next = into.out.split("\n").filter((l) => /^ {2}ragjudge /.test(l)).map((l) => l.trim().split(" ").slice(1));
    expect(next.map((a) => a[0])).toEqual(["validate", "run", "compare"]);
    for (const args of next) {
      const r = await runCliCaptured(args);
      expect(r.code, `${args.join(" ")}\n${r.err}`).toBe(0);
    }
  }, 60_000);

  it("names only the columns it read: a full Ragas export's golden columns are the project's, not this file's", async () => {
    const dir = tempDir("ragjudge-into-full-");
    firstPipeline(join(dir, "a.jsonl"));
    const proj = join(dir, "proj");
    expect((await runCliCaptured(["import", "ragas", join(dir, "a.jsonl"), "--out", proj, "--variant", "first"])).code).toBe(0);
    // the second export has the golden columns too, with other passages: none of them is read
    writeFileSync(join(dir, "full.jsonl"), jsonl(ROWS.map((r) => ({ question: r.question, contexts: [PASSAGES[r.gold]!], answer: "Second [1].", ground_truth: "other", reference_contexts: [PASSAGES[(r.gold + 2) % 4]!] }))));
    const into = await runCliCaptured(["import", "ragas", join(dir, "full.jsonl"), "--into", join(proj, "ragjudge.config.json"), "--variant", "second"]);
    expect(into.code, into.err).toBe(0);
    expect(into.out).toContain("; columns question <- question, contexts <- contexts, answer <- answer\n");
  });

  it("refuses a name the project has, a row that answers no question of its golden set, and golden-set flags; nothing written", async () => {
    const dir = tempDir("ragjudge-into-bad-");
    firstPipeline(join(dir, "a.jsonl"));
    const proj = join(dir, "proj");
    expect((await runCliCaptured(["import", "ragas", join(dir, "a.jsonl"), "--out", proj, "--variant", "first"])).code).toBe(0);
    const config = join(proj, "ragjudge.config.json");
    const before = readFileSync(config, "utf8");

    secondPipeline(join(dir, "b.jsonl"));
    const twice = await runCliCaptured(["import", "ragas", join(dir, "b.jsonl"), "--into", config, "--variant", "First"]);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/ragjudge\.config\.json:\d+: variants: a variant named "first" is there already \(variants: first\): give this one another name with --variant NAME\n$/);

    secondPipeline(join(dir, "c.jsonl"), [{ user_input: "What is the CEO's salary?", retrieved_contexts: [PASSAGES[1]!], response: "Not found." }]);
    const stranger = await runCliCaptured(["import", "ragas", join(dir, "c.jsonl"), "--into", config, "--variant", "second"]);
    expect(stranger.code).toBe(2);
    expect(stranger.err).toBe(`ragjudge: error: ${join(dir, "c.jsonl")}:5: user_input: no question of the golden set ${join(proj, "golden", "questions.jsonl")} reads "What is the CEO's salary?": a variant answers the project's questions (or name an id column with --id-col)\n`);

    const flags = await runCliCaptured(["import", "ragas", join(dir, "b.jsonl"), "--into", config, "--split", "heldout"]);
    expect(flags.code).toBe(2);
    expect(flags.err).toContain("--split: --into keeps the project's golden set");
    const both = await runCliCaptured(["import", "ragas", join(dir, "b.jsonl"), "--into", config, "--out", proj]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("--out and --into do not combine");

    expect(readFileSync(config, "utf8")).toBe(before);
    expect(existsSync(join(proj, "outputs", "second.output.jsonl"))).toBe(false);
    expect(existsSync(join(proj, "outputs", "First.output.jsonl"))).toBe(false);
  });
});
