import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp.js";

/**
 * The same small dataset three ways: chunk ids with a chunks file (the
 * reference), a Ragas-style JSONL with passages as text, and a CSV with
 * passages as text. After `import` and `run`, retrieval must give the same
 * figures to the last bit, overall and per question.
 */
const DOCS: Record<string, string[]> = {
  leave: ["Unused earned leave can be carried forward up to 45 days.", "Casual leave lapses at the end of the calendar year.", "Sick leave needs a medical note after three days."],
  pay: ["Salaries are credited on the last working day of the month.", "Reimbursements are paid with the next salary.", "Tax declarations are due every January."],
  travel: ["Economy class is the default for flights under six hours.", "Hotel bookings go through the travel desk.", "Per diem in metro cities is 3000 rupees."],
  it: ["Laptops are replaced every four years.", "Passwords expire after ninety days.", "VPN access needs a ticket to the IT desk."],
};
const CHUNKS = Object.entries(DOCS).flatMap(([doc, texts]) => texts.map((text, i) => ({ id: `${doc}#${i}`, doc, text })));
const text = (id: string) => CHUNKS.find((c) => c.id === id)!.text;

interface Q { id: string; question: string; relevant: string[]; retrieved: string[]; answer: string; reference: string }
const QUESTIONS: Q[] = [
  { id: "q1", question: "How much leave carries over?", relevant: ["leave#0"], retrieved: ["leave#1", "leave#0", "pay#0"], answer: "Up to 45 days [2].", reference: "45 days." },
  { id: "q2", question: "When is salary paid?", relevant: ["pay#0"], retrieved: ["pay#0", "pay#1"], answer: "On the last working day [1].", reference: "The last working day." },
  { id: "q3", question: "Which class for short flights?", relevant: ["travel#0", "travel#2"], retrieved: ["travel#1", "it#0", "travel#0", "pay#2", "leave#2", "it#1"], answer: "Economy [3].", reference: "Economy." },
  // Its relevant chunk is retrieved for no question: it must still count in recall's denominator.
  { id: "q4", question: "How often are laptops replaced?", relevant: ["it#2", "it#0"], retrieved: ["it#0", "it#1"], answer: "Every four years [1].", reference: "Every four years." },
  { id: "q5", question: "Do I need a note for sick leave?", relevant: ["leave#2"], retrieved: ["pay#1", "travel#2"], answer: "No.", reference: "After three days." },
];
const UNANSWERABLE = [{ id: "q6", question: "What is the CEO's salary?", retrieved: ["pay#0"], answer: "Not found." }];

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;

function writeIds(dir: string): string {
  writeFileSync(join(dir, "chunks.jsonl"), jsonl(CHUNKS));
  writeFileSync(join(dir, "golden.jsonl"), jsonl([
    ...QUESTIONS.map((q) => ({ id: q.id, question: q.question, relevant: q.relevant, reference: q.reference })),
    ...UNANSWERABLE.map((q) => ({ id: q.id, question: q.question, answerable: false })),
  ]));
  writeFileSync(join(dir, "out.jsonl"), jsonl([...QUESTIONS, ...UNANSWERABLE].map((q) => ({ id: q.id, retrieved: q.retrieved, answer: q.answer }))));
  const config = join(dir, "ragjudge.config.json");
  writeFileSync(config, JSON.stringify({ name: "ids", golden: "golden.jsonl", variants: [{ name: "rag", output: "out.jsonl", chunks: "chunks.jsonl" }], judge: { kind: "baseline" } }));
  return config;
}

function writeRagas(file: string): void {
  writeFileSync(file, jsonl([
    ...QUESTIONS.map((q) => ({ question_id: q.id, question: q.question, contexts: q.retrieved.map(text), answer: q.answer, ground_truth: q.reference, reference_contexts: q.relevant.map(text) })),
    ...UNANSWERABLE.map((q) => ({ question_id: q.id, question: q.question, contexts: q.retrieved.map(text), answer: q.answer, ground_truth: "" })),
  ]));
}

/** A CSV as a spreadsheet export has it: renamed columns (mapped by flags), list cells as JSON and one as a Python list. */
function writeCsv(file: string): void {
  const rows = [["qid", "query", "retrieved", "response", "gold answer", "gold passages", "no answer"]];
  QUESTIONS.forEach((q, i) => {
    const list = (ids: string[]) => (i === 2 ? `[${ids.map((id) => `'${text(id).replace(/'/g, "\\'")}'`).join(", ")}]` : JSON.stringify(ids.map(text)));
    rows.push([q.id, q.question, list(q.retrieved), q.answer, q.reference, list(q.relevant), "no"]);
  });
  for (const q of UNANSWERABLE) rows.push([q.id, q.question, JSON.stringify(q.retrieved.map(text)), q.answer, "", "[]", "yes"]);
  writeFileSync(file, "\ufeff" + rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n");
}

async function retrieval(config: string, evals: string): Promise<{ overall: unknown; perQuery: unknown }> {
  const r = await runCliCaptured(["run", "--config", config, "--evaluations-dir", evals, "--quiet"]);
  expect(r.code, r.err).toBe(0);
  const folder = r.out.trim();
  const report = JSON.parse(readFileSync(join(folder, "report.json"), "utf8")) as { variants: { retrieval: { overall: unknown } }[] };
  const perQuery = (JSON.parse(readFileSync(join(folder, "retrieval.json"), "utf8")) as { perQuery: unknown }[])[0]!.perQuery;
  return { overall: report.variants[0]!.retrieval.overall, perQuery };
}

describe("ragjudge import: passages as text score exactly as ids and chunks", () => {
  it("a Ragas-style JSONL and a CSV, imported and run, give the retrieval figures of the same data as ids and chunks", async () => {
    const dir = tempDir("ragjudge-import-");
    const reference = await retrieval(writeIds(dir), join(dir, "evals-ids"));

    writeRagas(join(dir, "ragas.jsonl"));
    const ragas = await runCliCaptured(["import", "ragas", join(dir, "ragas.jsonl"), "--out", join(dir, "from-ragas"), "--variant", "rag", "--empty-reference-unanswerable"]);
    expect(ragas.code, ragas.err).toBe(0);
    expect(ragas.out).toMatch(/6 questions \(5 answerable, 1 unanswerable\)/);
    expect(await retrieval(join(dir, "from-ragas", "ragjudge.config.json"), join(dir, "evals-ragas"))).toEqual(reference);

    writeCsv(join(dir, "export.csv"));
    const csv = await runCliCaptured(["import", "csv", join(dir, "export.csv"), "--out", join(dir, "from-csv"), "--variant", "rag",
      "--id-col", "qid", "--question-col", "query", "--contexts-col", "retrieved", "--answer-col", "response",
      "--reference-col", "gold answer", "--reference-contexts-col", "gold passages", "--unanswerable-col", "no answer"]);
    expect(csv.code, csv.err).toBe(0);
    expect(await retrieval(join(dir, "from-csv", "ragjudge.config.json"), join(dir, "evals-csv"))).toEqual(reference);

    // Sanity: the figures are not trivial (q4's unretrieved relevant chunk keeps its recall at 0.5).
    const rows = reference.perQuery as { id: string; values: Record<string, number> }[];
    expect(rows.find((q) => q.id === "q4")!.values["R@10"]).toBe(0.5);
    expect(rows.find((q) => q.id === "q5")!.values["R@10"]).toBe(0);
  }, 60_000);

  it("reports every row it cannot convert as file:line: column: message, and writes nothing", async () => {
    const dir = tempDir("ragjudge-import-bad-");
    const file = join(dir, "bad.jsonl");
    writeFileSync(file, jsonl([
      { question: "ok?", contexts: ["A passage."], answer: "a", reference_contexts: ["A passage."] },
      { question: "empty passage?", contexts: ["A passage.", "   "], answer: "a", reference_contexts: ["A passage."] },
      { question: "twice?", contexts: ["Same text.", "same  TEXT."], answer: "a", reference_contexts: ["Same text."] },
      { question: "unanswerable, never guessed", contexts: [], answer: "not found", ground_truth: "" },
      { contexts: [], answer: "a", reference_contexts: ["x"] },
    ]));
    const out = join(dir, "out");
    const r = await runCliCaptured(["import", "ragas", file, "--out", out]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toEqual([
      `ragjudge: error: ${file}:2: contexts[1]: empty passage (no text after white space is removed)`,
      `ragjudge: error: ${file}:3: contexts[1]: passage text identical to contexts[0] after normalising: one text is one passage with one id; drop the repeat`,
      `ragjudge: error: ${file}:4: reference_contexts: missing: an answerable question needs the passages that answer it, for retrieval scores (map a column with --reference-contexts-col); mark questions the documents cannot answer with --unanswerable-col NAME or --empty-reference-unanswerable`,
      `ragjudge: error: ${file}:5: question: empty (every row needs its question)`,
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it("reads a JSONL's keys in any case, as it finds them: Question and Contexts are the question and contexts", async () => {
    const dir = tempDir("ragjudge-import-case-");
    const file = join(dir, "caps.jsonl");
    writeFileSync(file, jsonl([{ Question: "How long is the warranty?", Contexts: ["Frames carry a lifetime warranty."], Answer: "Lifetime.", Reference_Contexts: ["Frames carry a lifetime warranty."] }]));
    const byDefault = await runCliCaptured(["import", "ragas", file, "--out", join(dir, "a")]);
    expect(byDefault.code, byDefault.err).toBe(0);
    expect(byDefault.out).toMatch(/columns question <- Question, contexts <- Contexts, answer <- Answer, reference contexts <- Reference_Contexts/);
    expect(readFileSync(join(dir, "a", "golden", "questions.jsonl"), "utf8")).toMatch(/"question":"How long is the warranty\?"/);
    // help and the columns line name the field as people read it, not the key referenceContexts
    expect(byDefault.out).not.toContain("referenceContexts");
    expect((await runCliCaptured(["import", "--help"])).out.replace(/\s+/g, " ")).toContain("the reference contexts column (default: reference_contexts)");
    const byFlag = await runCliCaptured(["import", "ragas", file, "--out", join(dir, "b"), "--question-col", "QUESTION"]);
    expect(byFlag.code, byFlag.err).toBe(0);
  });

  it("names the variant after the file without a dash left over: 'Ragas Export (2).jsonl' is Ragas-Export-2", async () => {
    const dir = tempDir("ragjudge-import-name-");
    const file = join(dir, "Ragas Export (2).jsonl");
    writeFileSync(file, jsonl([{ question: "How long is the warranty?", contexts: ["Frames carry a lifetime warranty."], answer: "Lifetime.", reference_contexts: ["Frames carry a lifetime warranty."] }]));
    const r = await runCliCaptured(["import", "ragas", file, "--out", join(dir, "p")]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(dir, "p", "outputs", "Ragas-Export-2.output.jsonl"))).toBe(true);
  });

  it("says once that the reference passages' column is missing, not on every answerable row", async () => {
    const dir = tempDir("ragjudge-import-noref-");
    const file = join(dir, "rows.jsonl");
    const row = (q: string) => ({ question: q, contexts: ["Frames carry a lifetime warranty."], answer: "Lifetime." });
    writeFileSync(file, jsonl([row("How long is the warranty?"), row("Is the frame covered?"), row("Who pays shipping?")]));
    const r = await runCliCaptured(["import", "ragas", file, "--out", join(dir, "p")]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: ${file}:1: reference_contexts: column not found (looked for reference_contexts; the rows have: question, contexts, answer): an answerable question needs the passages that answer it, for retrieval scores; name yours with --reference-contexts-col NAME, or mark questions the documents cannot answer with --unanswerable-col NAME or --empty-reference-unanswerable\n`);
    expect(existsSync(join(dir, "p"))).toBe(false);
  });

  it("keeps the judge's cache out of git, as init does: .ragjudge/ added to .gitignore once, an existing .gitignore kept", async () => {
    const dir = tempDir("ragjudge-import-ignore-");
    const file = join(dir, "rows.jsonl");
    writeFileSync(file, jsonl([{ question: "How long is the warranty?", contexts: ["Frames carry a lifetime warranty."], answer: "Lifetime.", reference_contexts: ["Frames carry a lifetime warranty."] }]));
    const fresh = await runCliCaptured(["import", "ragas", file, "--out", join(dir, "a")]);
    expect(fresh.code, fresh.err).toBe(0);
    expect(readFileSync(join(dir, "a", ".gitignore"), "utf8")).toBe("# the ragjudge judge's cache\n.ragjudge/\n");
    expect(fresh.out).toContain(`added .ragjudge/ (the judge's cache) to ${join(dir, "a", ".gitignore")}`);
    mkdirSync(join(dir, "b"));
    writeFileSync(join(dir, "b", ".gitignore"), "node_modules\n/.ragjudge\n");
    const kept = await runCliCaptured(["import", "ragas", file, "--out", join(dir, "b")]);
    expect(kept.code, kept.err).toBe(0);
    expect(readFileSync(join(dir, "b", ".gitignore"), "utf8")).toBe("node_modules\n/.ragjudge\n");
    expect(kept.out).not.toContain(".gitignore");
    // a .gitignore that is a folder is refused before anything is written
    mkdirSync(join(dir, "c", ".gitignore"), { recursive: true });
    const refused = await runCliCaptured(["import", "ragas", file, "--out", join(dir, "c")]);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(`ragjudge: error: ${join(dir, "c", ".gitignore")}: exists and is not a file\n`);
    expect(readdirSync(join(dir, "c"))).toEqual([".gitignore"]);
  });

  it("into a project that exists, names each file it would overwrite, and offers --variant only for the output, the one file it renames", async () => {
    const dir = tempDir("ragjudge-import-taken-");
    const file = join(dir, "ragas.jsonl");
    writeRagas(file);
    const out = join(dir, "proj");
    const first = await runCliCaptured(["import", "ragas", file, "--out", out, "--empty-reference-unanswerable"]);
    expect(first.code, first.err).toBe(0);
    const again = await runCliCaptured(["import", "ragas", file, "--out", out, "--empty-reference-unanswerable", "--variant", "other"]);
    expect(again.code).toBe(2);
    expect(again.err).toBe([
      `ragjudge: error: ${join(out, "ragjudge.config.json")}: exists: import never overwrites; choose another --out, or move it away (to add this file as another variant of that project: --into ${join(out, "ragjudge.config.json")} instead of --out)`,
      `ragjudge: error: ${join(out, "golden", "questions.jsonl")}: exists: import never overwrites; choose another --out, or move it away`,
    ].join("\n") + "\n");
    rmSync(join(out, "ragjudge.config.json"));
    rmSync(join(out, "golden", "questions.jsonl"));
    const output = await runCliCaptured(["import", "ragas", file, "--out", out, "--empty-reference-unanswerable"]);
    expect(output.err).toBe(`ragjudge: error: ${join(out, "outputs", "ragas.output.jsonl")}: exists: import never overwrites; choose another --out or --variant, or move it away\n`);
  });

  it("a CSV given as ragas is refused at its lines, without claiming its columns are missing", async () => {
    const dir = tempDir("ragjudge-import-format-");
    const file = join(dir, "data.csv");
    writeFileSync(file, "question,contexts,answer\nq,\"[]\",a\n");
    const r = await runCliCaptured(["import", "ragas", file, "--out", join(dir, "out")]);
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/column not found/);
    expect(r.err.trim().split("\n")).toEqual([
      `ragjudge: error: ${file}:1: not valid JSON (Unexpected token 'q', "question,c"... is not valid JSON)`,
      `ragjudge: error: ${file}:2: not valid JSON (Unexpected token 'q', "q,"[]",a" is not valid JSON)`,
    ]);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("names a missing or renamed CSV column at the header line, and an --out that is a file; nothing written", async () => {
    const dir = tempDir("ragjudge-import-col-");
    const file = join(dir, "renamed.csv");
    writeFileSync(file, "question,passages,answer\nq,\"[]\",a\n");
    const r = await runCliCaptured(["import", "csv", file, "--out", join(dir, "out")]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: ${file}:1: contexts: column not found (looked for contexts or retrieved_contexts; the header has: question, passages, answer); name yours with --contexts-col NAME\n`);
    const mapped = await runCliCaptured(["import", "csv", file, "--out", join(dir, "out"), "--contexts-col", "docs"]);
    expect(mapped.err).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1: docs: column not found \\(--contexts-col docs; the header has: question, passages, answer\\)`));
    writeFileSync(join(dir, "taken"), "");
    const onFile = await runCliCaptured(["import", "csv", file, "--out", join(dir, "taken"), "--contexts-col", "passages"]);
    expect(onFile.code).toBe(2);
    expect(onFile.err).toBe(`ragjudge: error: ${join(dir, "taken")}: is a file, expected a folder for --out\n`);
    expect(readdirSync(dir).sort()).toEqual(["renamed.csv", "taken"]);
  });
});
