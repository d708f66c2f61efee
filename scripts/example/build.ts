/**
 * Regenerates the shipped example: `npm run example:build`
 * (`tsx scripts/example/build.ts [--root golden] [--out golden]`).
 *
 * Reads `<root>/corpus/*.md`, `<root>/questions.jsonl` and
 * `<root>/answers/<variant>.jsonl`; writes `<out>/variants/<variant>/chunks.jsonl`,
 * `<out>/variants/<variant>/output.jsonl` and `<out>/answers/PLANTED.md`.
 * Byte-for-byte deterministic: no time stamps, fixed score rounding, ties
 * broken by chunk id. Nothing is written unless every file could be built.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { InputError, InputErrors } from "../../src/golden/errors.js";
import { writeFileAtomic } from "../../src/golden/files.js";
import { buildExample } from "./example.js";

const here = dirname(fileURLToPath(import.meta.url));

function main(): number {
  let args;
  try {
    args = parseArgs({ options: { root: { type: "string" }, out: { type: "string" }, help: { type: "boolean" } }, strict: true });
  } catch (e) {
    process.stderr.write(`example:build: ${(e as Error).message}\nusage: tsx scripts/example/build.ts [--root DIR] [--out DIR]\n`);
    return 2;
  }
  if (args.values.help) {
    process.stdout.write("usage: tsx scripts/example/build.ts [--root DIR] [--out DIR]\n  --root  folder with corpus/, questions.jsonl, answers/ (default: golden)\n  --out   folder to write variants/ and answers/PLANTED.md into (default: the root)\n");
    return 0;
  }
  const root = resolve(args.values.root ?? join(here, "..", "..", "golden"));
  const out = resolve(args.values.out ?? root);
  let files;
  try {
    files = buildExample(root);
  } catch (e) {
    if (e instanceof InputErrors) for (const p of e.problems) process.stderr.write(`${p.message}\n`);
    else if (e instanceof InputError) process.stderr.write(`${e.message}\n`);
    else throw e;
    return 2;
  }
  for (const [rel, text] of files) writeFileAtomic(join(out, rel), text);
  process.stderr.write(`example:build: wrote ${files.size} files to ${out}${files.has("answers/PLANTED.md") ? "" : " (no answers yet: outputs have no answer field)"}\n`);
  return 0;
}

process.exitCode = main();
