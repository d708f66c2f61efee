/**
 * Prints each golden question with the context its variant retrieved,
 * numbered as an answer's `[n]` markers count, and marks the chunks that
 * contain the anchor. For writing or reviewing the hand-written answers in
 * `golden/answers/<variant>.jsonl`, which must be answerable from exactly
 * this context.
 *
 * Usage: tsx scripts/example/show-context.ts <variant> [question-id ...]
 */
import { loadConfig } from "../../src/golden/config.js";
import { contextOf, loadGolden, loadVariant, relevantSets } from "../../src/golden/dataset.js";
import { InputError, InputErrors } from "../../src/golden/errors.js";

function main(argv: string[]): number {
  const [variant, ...ids] = argv;
  const cfg = loadConfig(undefined);
  const v = cfg.config.variants.find((x) => x.name === variant);
  if (!v) {
    process.stderr.write(`usage: tsx scripts/example/show-context.ts <${cfg.config.variants.map((x) => x.name).join("|")}> [question-id ...]\n`);
    return 2;
  }
  const golden = loadGolden(cfg.path(cfg.config.golden));
  const data = loadVariant(v, golden, cfg.path);
  const rel = relevantSets(golden, data.chunks);
  for (const q of golden.questions) {
    if (ids.length && !ids.includes(q.id)) continue;
    const out = data.outputs.get(q.id);
    if (!out) continue;
    const relevant = rel.get(q.id) ?? new Set<string>();
    const ctx = contextOf(out, data.contextK);
    const inCtx = ctx.some((id) => relevant.has(id));
    process.stdout.write(`\n=== ${q.id} (${q.kind ?? "?"}${q.answerable ? "" : ", unanswerable"}) ${q.question}\n`);
    process.stdout.write(`reference: ${q.reference ?? ""}\n`);
    if (q.answerable) process.stdout.write(`relevant chunk in context: ${inCtx ? "yes" : "NO"} (relevant: ${[...relevant].join(", ")})\n`);
    ctx.forEach((id, i) => {
      const c = data.chunks.byId.get(id);
      const head = c?.heading ? ` <${c.heading}>` : "";
      process.stdout.write(`[${i + 1}] ${id}${relevant.has(id) ? " *RELEVANT*" : ""}${head}\n    ${(c?.text ?? "(unknown chunk)").replace(/\n+/g, " / ")}\n`);
    });
    if (out.answer) process.stdout.write(`answer: ${out.answer}\n`);
  }
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  if (e instanceof InputErrors) for (const p of e.problems) process.stderr.write(`${p.message}\n`);
  else if (e instanceof InputError) process.stderr.write(`${e.message}\n`);
  else throw e;
  process.exitCode = 2;
}
