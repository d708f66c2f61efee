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

/** `ragjudge init`'s action (see commands/init.ts). */
export function initAction(dir: string, flags: { rubrics?: boolean }): void {
  const r = writeStarter(dir, { rubrics: flags.rubrics ?? false });
  const lines = [`ragjudge init: ${displayPath(r.dir) || "."}`];
  for (const f of r.written) lines.push(`  wrote ${f.path}: ${f.what}`);
  for (const f of r.existing) lines.push(`  exists, left as it is: ${f.path}`);
  for (const f of r.skipped) lines.push(`  not written: ${f.path} (example data; the project's ragjudge.config.json names its own files)`);
  lines.push(r.gitignore === "added" ? "  added .ragjudge/ (the judge's cache) to .gitignore" : "  .gitignore already ignores .ragjudge/");
  if (r.written.length === 0) lines.push(r.skipped.length ? "Nothing new written: the project exists." : "Nothing new written: every starter file exists.");
  const cd = cdHint(r.dir);
  const starter = !(r.skipped.length || r.written.length === 0);
  lines.push(
    starter
      ? "Next: put your questions in golden/questions.jsonl and your pipeline's output in outputs/my-rag.output.jsonl, then:"
      : "Next: check the project's files and run it:",
    ...(cd ? [`  cd ${cd}`] : []),
    "  ragjudge validate",
    "  ragjudge run",
    // import never overwrites, so it cannot fill the starter just written: its hint names a new folder, apart from the
    // cd above (it read "(or ... ragjudge import ragas FILE --out DIR), then: cd my-eval", and --out my-eval was refused)
    ...(starter
      ? ["Have a Ragas-style JSONL or a CSV instead? import writes a project of its own (config, golden set, output) into a new folder:",
         "  ragjudge import ragas FILE --out NEW-FOLDER   (or: ragjudge import csv FILE --out NEW-FOLDER), then validate and run there"]
      : []),
  );
  process.stdout.write(lines.join("\n") + "\n");
}
