import type { Command } from "commander";
import { relative } from "node:path";
import { displayPath } from "../../golden/errors.js";
import { writeStarter } from "../../golden/starter.js";

/** How to reach `dir` from the working directory in a command line ("" when it is the working directory). */
function cdHint(dir: string): string {
  const rel = relative(process.cwd(), dir);
  if (rel === "") return "";
  const shown = rel.startsWith("..") ? dir : rel;
  return /^[\w./@+-]+$/.test(shown) ? shown : JSON.stringify(shown);
}

/**
 * `ragjudge init [dir]`: a starter project (commented config, two example
 * lines of the golden set and of a pipeline output, a .gitignore entry for
 * the cache; `--rubrics` copies the packaged rubrics out for editing).
 * Never overwrites; a rerun says what exists.
 */
export function registerInit(program: Command): void {
  program
    .command("init")
    .description("Start a ragjudge project in a folder: a commented ragjudge.config.json naming its files, a golden set and a pipeline output with two example lines each (passages as text), and a .gitignore entry for the judge's cache. Never overwrites a file.")
    .argument("[dir]", "the folder (created when missing)", ".")
    .option("--rubrics", "also copy the packaged rubrics to rubrics/ for editing (a copy there is used instead of the packaged ones)")
    .action((dir: string, flags: { rubrics?: boolean }) => {
      const r = writeStarter(dir, { rubrics: flags.rubrics ?? false });
      const lines = [`ragjudge init: ${displayPath(r.dir) || "."}`];
      for (const f of r.written) lines.push(`  wrote ${f.path}: ${f.what}`);
      for (const f of r.existing) lines.push(`  exists, left as it is: ${f.path}`);
      lines.push(r.gitignore === "added" ? "  added .ragjudge/ (the judge's cache) to .gitignore" : "  .gitignore already ignores .ragjudge/");
      if (r.written.length === 0) lines.push("Nothing new written: every starter file exists.");
      const cd = cdHint(r.dir);
      lines.push(
        "Next: put your questions in golden/questions.jsonl and your pipeline's output in outputs/my-rag.output.jsonl",
        "(or convert a Ragas-style JSONL or a CSV: ragjudge import ragas FILE --out DIR), then:",
        ...(cd ? [`  cd ${cd}`] : []),
        "  ragjudge validate",
        "  ragjudge run",
      );
      process.stdout.write(lines.join("\n") + "\n");
    });
}
