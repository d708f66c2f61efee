import { basisSuffix, headlineVerdicts, interval, num, OUTCOME_LABELS, pct } from "./format.js";
import { toJUnitXml, type JUnitSuite } from "./junit.js";
import type { ReportJson } from "./schema.js";
import { OUTCOMES } from "./search-or-answer.js";
import { panelJunitSuite } from "./panel/junit.js";

/**
 * The JUnit suites of a run, for CI dashboards:
 * - `retrieval floors`: one case per floor and variant, failing when missed;
 * - `trust gate`: one case per rubric and judge fingerprint, failing when
 *   untrusted under --require-trusted, skipped (with the reason) otherwise;
 * - `search or answering`: one informational case per variant carrying the
 *   outcome counts and the diagnosis (always passing); while a rubric the
 *   join rests on is untrusted, "not decided" and what retrieval alone says,
 *   as every other report says it (no count from untrusted verdicts).
 */
export function junitSuites(report: ReportJson): JUnitSuite[] {
  const floors: JUnitSuite = {
    name: "retrieval floors",
    cases: report.gate.floors.map((f) => ({
      name: `${f.measure} >= ${f.min}`,
      classname: `ragjudge.retrieval.${f.variant}`,
      ...(f.passed ? { systemOut: `${f.measure} = ${num(f.value, 4)}` } : { failure: `${f.variant}: ${f.measure} = ${num(f.value, 4)}, below its floor ${f.min}` }),
    })),
  };
  if (floors.cases.length === 0) floors.cases.push({ name: "floors", classname: "ragjudge.retrieval", skipped: 'no floors configured (set "floors" in the config or pass --fail-under)' });
  const trust: JUnitSuite = {
    name: "trust gate",
    cases: report.rubrics.map((r) => {
      const name = `${r.rubric} trusted`;
      const classname = `ragjudge.trust.${r.rubric}`;
      const rates = r.variants.map((v) => `${v.variant}: ${r.trust.trusted ? "trusted" : "untrusted"} pass rate ${pct(v.raw.value)} ${interval(v.raw.ci, true)}`).join("\n");
      const out = `${r.trust.message}${basisSuffix(r)}; fingerprint ${r.fingerprint}\n${rates}`;
      if (r.trust.trusted) return { name, classname, systemOut: out };
      if (report.gate.requireTrusted) return { name, classname, failure: `${r.rubric}: ${r.trust.message}`, systemOut: out };
      return { name, classname, skipped: `${r.trust.message} (not enforced: run with --require-trusted)`, systemOut: out };
    }),
  };
  const soa: JUnitSuite = {
    name: "search or answering",
    cases: report.variants.map((v, i) => {
      const headline = headlineVerdicts(report)[i]!;
      if (!headline.decided) return { name: `${v.name}: not decided (untrusted answer rubrics)`, classname: `ragjudge.answers.${v.name}`, systemOut: headline.text };
      const c = v.searchOrAnswer.overall.counts;
      const counts = OUTCOMES.filter((o) => c[o] > 0).map((o) => `${OUTCOME_LABELS[o]} ${c[o]}`).join(", ");
      return { name: `${v.name}: ${counts}`, classname: `ragjudge.answers.${v.name}`, systemOut: v.searchOrAnswer.diagnosis };
    }),
  };
  return [floors, trust, soa, ...(report.panel ? [panelJunitSuite(report.panel)] : [])];
}

/** junit.xml of a run. */
export function reportJunit(report: ReportJson): string {
  return toJUnitXml(`ragjudge ${report.name}`, junitSuites(report), new Date(report.time));
}
