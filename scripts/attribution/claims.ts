/**
 * `npm run attribution:claims`: claim-level faithfulness reproduces the
 * answer-level figures on data whose rows are single claims.
 *
 * Converts ../shared/data/attribution-dev.jsonl (400 AttributionBench
 * claims) and attribution-dev-full.jsonl (1,198) to ragjudge's formats in a
 * temporary folder (third-party data: never copied into the repository),
 * judges faithfulness with the offline baseline at `faithfulnessUnit:
 * "answer"` and at `"claim"`, and prints Cohen's kappa with its asymptotic
 * 95% interval for each path (claims-measure.ts). The claim path must give
 * the same verdicts, so the same kappa; the splitter path shows what forcing
 * the sentence splitter on these rows would do.
 *
 * Flags: `--data FILE` (one file instead of both). Without the data it
 * prints one line and exits 0.
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { reportError } from "../../src/cli/errors.js";
import { convertFile } from "./convert.js";
import { dataFileOrSkip, flagValue } from "./data.js";
import { measureClaims } from "./claims-measure.js";
import type { Agreement } from "./measure.js";

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? "n/a" : x.toFixed(3));

function line(what: string, a: Agreement): string {
  const k = a.kappa;
  return `  ${what.padEnd(58)} n ${String(a.n).padStart(5)}  kappa ${f3(k.kappa)} [${f3(k.ci?.lo)}, ${f3(k.ci?.hi)}]  accuracy ${f3(a.accuracy)}`;
}

async function main(args: string[]): Promise<number> {
  const explicit = flagValue(args, "--data");
  const first = dataFileOrSkip(explicit, "attribution:claims");
  if (!first) return 0;
  const files = explicit ? [first] : [join(dirname(first), "attribution-dev.jsonl"), first];
  let same = true;
  for (const file of files) {
    const { dir } = convertFile(file);
    try {
      const m = await measureClaims(dir);
      console.log(`${file} (baseline judge, faithfulness; Cohen's kappa with its asymptotic 95% interval)`);
      console.log(line("answer path (faithfulnessUnit answer)", m.answerPath.answer));
      console.log(line("claim path, claims against claim labels (calibration)", m.claimPath.claims!));
      console.log(line("claim path, derived answer verdicts against row labels", m.claimPath.answer));
      console.log(`  answer verdicts differing between the two paths: ${m.differing}; rows of several claims: ${m.claimPath.multiClaim}`);
      console.log(line("splitter forced, claims against claim labels", m.splitterPath.claims!));
      console.log(line("splitter forced, derived answer verdicts", m.splitterPath.answer));
      console.log(`  rows the splitter cuts into several claims: ${m.splitterPath.multiClaim} (no claim label: a person labelled the row as one claim)\n`);
      if (m.differing !== 0 || m.answerPath.answer.kappa.kappa !== m.claimPath.claims!.kappa.kappa) same = false;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(same ? "the claim path reproduces the answer path: same verdicts, same kappa" : "the claim path DIFFERS from the answer path");
  return same ? 0 : 1;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  process.exitCode = reportError(e);
}
