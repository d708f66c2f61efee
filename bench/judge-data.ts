import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** Shape of the generated judge benchmark dataset. */
export interface JudgeBenchShape {
  questions: number;
  chunksPerQuestion: number;
}

const FILLER = [
  "Employees should keep receipts for every claim and submit them within thirty days of the expense.",
  "Managers approve requests in the portal; approvals older than two weeks are escalated automatically.",
  "The policy applies to permanent staff and to contractors engaged for more than six months.",
  "Exceptions need written approval from the head of the department and the finance controller.",
];

/**
 * Writes a synthetic dataset for `npm run bench:judge` into `dir`: N
 * answerable questions, each with `chunksPerQuestion` context chunks of about
 * 300 characters and a one-sentence answer citing one of them, so the four
 * default rubrics (faithfulness, correctness, citation accuracy, not found)
 * make exactly one call each per question. Returns the config file path.
 */
export function writeJudgeBenchData(dir: string, shape: JudgeBenchShape, baseURL: string, concurrency: number): string {
  mkdirSync(dir, { recursive: true });
  const chunks: string[] = [];
  const golden: string[] = [];
  const out: string[] = [];
  for (let i = 0; i < shape.questions; i++) {
    const ids: string[] = [];
    for (let c = 0; c < shape.chunksPerQuestion; c++) {
      const id = `doc${i}#${c}`;
      ids.push(id);
      const fact = c === 0 ? `The allowance for grade ${i} is ${100 + (i % 900)} rupees per day.` : `Section ${c} of document ${i} covers related rules.`;
      chunks.push(JSON.stringify({ id, doc: `doc${i}`, heading: `Section ${c}`, text: `${fact} ${FILLER[(i + c) % FILLER.length]} ${FILLER[(i + c + 1) % FILLER.length]}` }));
    }
    golden.push(JSON.stringify({ id: `q${i}`, question: `What is the daily allowance for grade ${i}?`, relevant: [ids[0]], reference: `${100 + (i % 900)} rupees per day.`, kind: i % 2 ? "numeric" : "policy", tags: [`t${i % 5}`] }));
    out.push(JSON.stringify({ id: `q${i}`, retrieved: ids, answer: `The allowance for grade ${i} is ${100 + (i % 900) + (i % 7 === 0 ? 50 : 0)} rupees per day [1].` }));
  }
  writeFileSync(join(dir, "chunks.jsonl"), chunks.join("\n") + "\n");
  writeFileSync(join(dir, "golden.jsonl"), golden.join("\n") + "\n");
  writeFileSync(join(dir, "output.jsonl"), out.join("\n") + "\n");
  const config = {
    name: "bench",
    golden: "golden.jsonl",
    variants: [{ name: "bench", output: "output.jsonl", chunks: "chunks.jsonl" }],
    rubricsDir: resolve(import.meta.dirname, "../rubrics"),
    cacheDir: "cache",
    judge: { kind: "openai", model: "bench-model", baseUrl: baseURL, concurrency, maxRetries: 2 },
  };
  const file = join(dir, "ragjudge.config.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}
