/**
 * JUnit XML for CI dashboards (GitLab, Jenkins, GitHub test reporters): one
 * test suite per section (retrieval floors, rubric trust, ...), one test case
 * per check; a failed check carries a <failure> with its message.
 */

/** One <testcase>: a check, failed, skipped or passed. */
export interface JUnitCase {
  name: string;
  classname: string;
  /** Present when the check failed. */
  failure?: string;
  /** Present when the check was not evaluated (for example no floor set). */
  skipped?: string;
  /** Extra output shown by dashboards. */
  systemOut?: string;
}

/** One <testsuite>: a named section of checks. */
export interface JUnitSuite {
  name: string;
  cases: JUnitCase[];
}

function xmlEscape(s: string): string {
  // XML 1.0 forbids most control characters even escaped; drop them.
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/**
 * Renders suites as a `<testsuites>` document.
 *
 * @example
 * toJUnitXml("ragjudge", [{ name: "retrieval floors", cases: [{ name: "R@10 >= 0.70", classname: "bm25", failure: "R@10 = 0.62" }] }])
 */
export function toJUnitXml(name: string, suites: JUnitSuite[], time = new Date()): string {
  const totals = suites.reduce(
    (a, s) => ({
      tests: a.tests + s.cases.length,
      failures: a.failures + s.cases.filter((c) => c.failure !== undefined).length,
      skipped: a.skipped + s.cases.filter((c) => c.skipped !== undefined && c.failure === undefined).length,
    }),
    { tests: 0, failures: 0, skipped: 0 },
  );
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="${xmlEscape(name)}" tests="${totals.tests}" failures="${totals.failures}" skipped="${totals.skipped}" errors="0" timestamp="${time.toISOString()}">`);
  for (const s of suites) {
    const failures = s.cases.filter((c) => c.failure !== undefined).length;
    const skipped = s.cases.filter((c) => c.skipped !== undefined && c.failure === undefined).length;
    out.push(`  <testsuite name="${xmlEscape(s.name)}" tests="${s.cases.length}" failures="${failures}" skipped="${skipped}" errors="0">`);
    for (const c of s.cases) {
      const open = `    <testcase name="${xmlEscape(c.name)}" classname="${xmlEscape(c.classname)}"`;
      const body: string[] = [];
      if (c.failure !== undefined) body.push(`      <failure message="${xmlEscape(c.failure.split("\n")[0]!)}">${xmlEscape(c.failure)}</failure>`);
      else if (c.skipped !== undefined) body.push(`      <skipped message="${xmlEscape(c.skipped)}"/>`);
      if (c.systemOut) body.push(`      <system-out>${xmlEscape(c.systemOut)}</system-out>`);
      out.push(body.length ? `${open}>\n${body.join("\n")}\n    </testcase>` : `${open}/>`);
    }
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return out.join("\n") + "\n";
}
