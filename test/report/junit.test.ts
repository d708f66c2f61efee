import { describe, expect, it } from "vitest";
import { toJUnitXml } from "../../src/report/junit.js";

describe("toJUnitXml", () => {
  it("counts failures and skips and escapes text", () => {
    const xml = toJUnitXml(
      "ragjudge",
      [
        {
          name: "retrieval floors",
          cases: [
            { name: "R@10 >= 0.70", classname: "bm25", failure: 'R@10 = 0.62 < 0.70 <"&>' },
            { name: "RR >= 0.5", classname: "bm25" },
            { name: "trust faithfulness", classname: "judge", skipped: "no calibration" },
          ],
        },
      ],
      new Date("2026-01-01T00:00:00Z"),
    );
    expect(xml).toContain('<testsuites name="ragjudge" tests="3" failures="1" skipped="1" errors="0" timestamp="2026-01-01T00:00:00.000Z">');
    expect(xml).toContain("R@10 = 0.62 &lt; 0.70 &lt;&quot;&amp;&gt;");
    expect(xml).toContain('<testcase name="RR &gt;= 0.5" classname="bm25"/>');
    expect(xml).toContain('<skipped message="no calibration"/>');
  });
});
