import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONFIG_FILE, packagedRubricsDir } from "./config.js";
import { InputError } from "./errors.js";
import { appendLineDurable, writeFileAtomic } from "./files.js";

/**
 * What `ragjudge init` writes: a starter project a team fills in with its own
 * data. The config is JSON with comments, so it explains each field where it
 * stands and shows one line of every format (golden set, pipeline output,
 * labels). The data files hold two example lines each, so `ragjudge run`
 * works at once and shows the whole loop before the team's own data is in.
 */

/** One file of the starter, relative to the target folder. */
export interface StarterFile {
  path: string;
  text: string;
  /** What it is, for the summary line. */
  what: string;
}

/** The cache folder line `init` adds to .gitignore. */
export const GITIGNORE_ENTRY = ".ragjudge/";

/** Where a starter config points: its name, golden set, and one variant's output. */
export interface StarterNames {
  name: string;
  golden: string;
  variant: string;
  output: string;
}

const DEFAULT_NAMES: StarterNames = { name: "my-rag", golden: "golden/questions.jsonl", variant: "my-rag", output: "outputs/my-rag.output.jsonl" };

/**
 * The commented starter config (JSON with comments): every field where it
 * stands and one line of every format. `init` and `import` write it.
 */
export function starterConfig(n: StarterNames = DEFAULT_NAMES): string {
  const q = JSON.stringify;
  return CONFIG.replace('"name": "my-rag"', `"name": ${q(n.name)}`)
    .replace('"golden": "golden/questions.jsonl"', `"golden": ${q(n.golden)}`)
    .replace('{ "name": "my-rag", "output": "outputs/my-rag.output.jsonl", "contextK": 5 }', `{ "name": ${q(n.variant)}, "output": ${q(n.output)}, "contextK": 5 }`);
}

const CONFIG = `// ragjudge config: JSON with comments. Paths are relative to this file's folder.
// Every field and its default: the README's "File formats". Check it with: ragjudge validate
{
  "name": "my-rag",

  // The golden set, one question per line. Relevance: "relevant" chunk ids, an "anchor"
  // (a verbatim phrase of 6 to 20 words from one document), or "relevantText" (the passages
  // a person marked as the right ones); "split": "heldout" marks the questions the trust gate counts.
  //   {"id":"q1","question":"How many days of leave carry over?","reference":"Up to 45 days.","relevantText":["Unused earned leave can be carried forward, up to 45 days."],"kind":"factual","tags":["hr"],"split":"heldout"}
  // A question the documents cannot answer (the right output is "not found"):
  //   {"id":"q2","question":"What is the CEO's salary?","answerable":false,"split":"heldout"}
  "golden": "golden/questions.jsonl",

  // One entry per version of your pipeline. Its output has one line per question:
  //   {"id":"q1","retrieved":[{"text":"Unused earned leave can be carried forward, up to 45 days.","doc":"hr-leave","score":0.82}],"answer":"Up to 45 days [1]."}
  // Passages given as text need no chunks file. With chunk ids instead ("retrieved":["hr-leave#4"]),
  // add "chunks": "chunks.jsonl" with lines {"id":"hr-leave#4","doc":"hr-leave","text":"..."}.
  // "context" (what the generator got) defaults to the top contextK of "retrieved";
  // [n] in the answer cites the n-th context passage.
  "variants": [
    { "name": "my-rag", "output": "outputs/my-rag.output.jsonl", "contextK": 5 }
  ],

  // Cut-offs of Hit@k, R@k, P@k, nDCG@k.
  "k": [1, 5, 10],

  // The judge: the offline baseline (no key, no network), or an LLM over any OpenAI-compatible
  // endpoint (the key comes only from OPENAI_API_KEY; a loopback server needs none):
  //   "judge": { "kind": "openai", "model": "gpt-4o-mini", "baseUrl": "http://localhost:8000/v1" }
  // An LLM judge's "logprobs": "auto" also records each verdict's P(yes) (README: verdict confidence).
  "judge": { "kind": "baseline" },

  // Several judges side by side, each calibrated on the same labels (README: judge panels):
  //   "judges": [{ "name": "small", "kind": "openai", "model": "qwen2.5:7b", "baseUrl": "http://localhost:11434/v1" },
  //              { "name": "lexical", "kind": "baseline" }]
  // Faithfulness claim by claim, naming the unsupported ones (README: claim-level faithfulness):
  //   "faithfulnessUnit": "claim"

  // Rubrics: the packaged defaults, unless a rubrics/ folder is beside this file
  // (ragjudge init --rubrics copies them here for editing; an edited prompt gets a new fingerprint).

  // Labels people give with ragjudge review go to labels/<annotator>.jsonl, one per line:
  //   {"variant":"my-rag","question":"q1","rubric":"faithfulness","unit":"answer","inputHash":"<sha256 of the evidence>","label":"yes","annotator":"asha","provenance":"human","frame":"random","inclusionProbability":0.5,"split":"heldout","time":"2026-11-30T10:00:00Z"}
  "labels": "labels",

  // Retrieval floors for CI: ragjudge run exits 1 below them, e.g. { "R@10": 0.7, "RR": 0.5 }.
  "floors": {},

  // The trust gate: a rubric is trusted once its exact judge has at least minLabels random
  // held-out labels (minPerClass of each answer) and kappa's 95% lower bound reaches kappaLower.
  "trust": { "minLabels": 50, "minPerClass": 10, "kappaLower": 0.6 },

  // USD per million tokens by model, for cost lines and ragjudge judge --dry-run:
  //   "prices": { "gpt-4o-mini": { "input": 0.15, "output": 0.6 } }

  // The judge's cache (keep it out of git) and where evaluation folders go.
  "cacheDir": ".ragjudge",
  "evaluationsDir": "evaluations"
}
`;

const GOLDEN = [
  {
    id: "example-1",
    question: "How many days of earned leave can I carry over to next year?",
    reference: "Up to a maximum balance of 45 days.",
    relevantText: ["Unused earned leave can be carried forward, up to a maximum balance of 45 days."],
    kind: "factual",
    tags: ["example"],
    split: "heldout",
  },
  { id: "example-2", question: "What is the CEO's salary?", answerable: false, kind: "unanswerable", tags: ["example"], split: "heldout" },
];

const OUTPUT = [
  {
    id: "example-1",
    retrieved: [
      { text: "Unused earned leave can be carried forward, up to a maximum balance of 45 days.", doc: "hr-leave-policy", score: 0.82 },
      { text: "Casual leave lapses at the end of the calendar year.", doc: "hr-leave-policy", score: 0.41 },
    ],
    answer: "You can carry forward unused earned leave up to a balance of 45 days [1].",
  },
  {
    id: "example-2",
    retrieved: [{ text: "Salaries are reviewed every April.", doc: "hr-pay", score: 0.2 }],
    answer: "I could not find this in the documents.",
  },
];

const jsonl = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** The starter's files, in the order they are reported; `example` marks the example data the starter config names. */
export function starterFiles(): (StarterFile & { example?: true })[] {
  return [
    { path: CONFIG_FILE, text: starterConfig(), what: "the config, commented: each field, and one line of every format" },
    { path: "golden/questions.jsonl", text: jsonl(GOLDEN), what: "the golden set: 2 example questions to replace with yours", example: true },
    { path: "outputs/my-rag.output.jsonl", text: jsonl(OUTPUT), what: "your pipeline's output: 2 example lines, passages as text", example: true },
  ];
}

/** The packaged rubric files (`--rubrics`), as starter files under rubrics/. */
export function rubricFiles(): StarterFile[] {
  const dir = packagedRubricsDir();
  return readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => ({
    path: `rubrics/${f}`,
    text: readFileSync(join(dir, f), "utf8"),
    what: "a packaged rubric, to edit",
  }));
}

/** What `init` did with each file. */
export interface InitResult {
  dir: string;
  written: StarterFile[];
  existing: StarterFile[];
  /**
   * Example data not written because the folder already has a config: its
   * project has files of its own (a removed or renamed example is not
   * brought back).
   */
  skipped: StarterFile[];
  /** Whether .gitignore got the cache entry, already had it. */
  gitignore: "added" | "present";
}

/**
 * Writes the starter into `dir` (created when missing). Never overwrites: a
 * file that exists is left as it is and reported. In a folder that already
 * has a config the example data is not written either (a user who replaced
 * the example files with their own, under other names, must not find the
 * examples back); `--rubrics` and the .gitignore entry still apply. A target that is a file,
 * or a starter path taken by something that is not a file, is an
 * {@link InputError} before anything is written.
 */
export function writeStarter(target: string, opts: { rubrics?: boolean } = {}): InitResult {
  const dir = resolve(target);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InputError(target, undefined, undefined, "is a file, expected a folder (ragjudge init writes a starter project into a folder)");
  const files = [...starterFiles(), ...(opts.rubrics ? rubricFiles() : [])];
  for (const f of files) {
    const p = join(dir, f.path);
    if (existsSync(p) && !statSync(p).isFile()) throw new InputError(p, undefined, undefined, "exists and is not a file; move it away or init another folder");
  }
  // checked before anything is written (ignoreCache adds its line after the files)
  gitignoreOf(dir);
  const written: StarterFile[] = [];
  const existing: StarterFile[] = [];
  const skipped: StarterFile[] = [];
  const project = existsSync(join(dir, CONFIG_FILE));
  for (const f of files) {
    const p = join(dir, f.path);
    if (existsSync(p)) existing.push(f);
    else if (project && "example" in f) skipped.push(f);
    else {
      writeFileAtomic(p, f.text);
      written.push(f);
    }
  }
  return { dir, written, existing, skipped, gitignore: ignoreCache(dir) };
}

/** `dir`'s .gitignore, refused (an {@link InputError}) when something other than a file has that name. */
export function gitignoreOf(dir: string): string {
  const gitignore = join(dir, ".gitignore");
  if (existsSync(gitignore) && !statSync(gitignore).isFile()) throw new InputError(gitignore, undefined, undefined, "exists and is not a file");
  return gitignore;
}

/**
 * Adds the judge's cache folder to `dir`'s .gitignore unless a line already
 * names it (`.ragjudge/`, `.ragjudge`, with or without a leading `/`): the
 * cache holds every verdict and raw reply, not something to commit. A
 * .gitignore that is not a file is an {@link InputError}.
 */
export function ignoreCache(dir: string): "added" | "present" {
  const gitignore = gitignoreOf(dir);
  const lines = existsSync(gitignore) ? readFileSync(gitignore, "utf8").split(/\r?\n/).map((l) => l.trim()) : [];
  const present = lines.some((l) => l === GITIGNORE_ENTRY || l === GITIGNORE_ENTRY.slice(0, -1) || l === `/${GITIGNORE_ENTRY}` || l === `/${GITIGNORE_ENTRY.slice(0, -1)}`);
  if (present) return "present";
  const text = existsSync(gitignore) ? readFileSync(gitignore, "utf8") : "";
  const lead = text === "" || text.endsWith("\n") ? "" : "\n";
  appendLineDurable(gitignore, `${lead}# the ragjudge judge's cache\n${GITIGNORE_ENTRY}`);
  return "added";
}
