import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/retrieval/diagnostics/table.js";
import { parseMeasures } from "../../src/retrieval/measures/parse.js";
import { renderMarkdown, renderTable, type RetrievalView } from "../../src/retrieval/report.js";

const measures = parseMeasures(["RR,R@10,num_ret"], []); // trec_eval order: num_ret, RR, R@10
const view: RetrievalView = {
  mode: "golden",
  name: "bm25",
  measures,
  summary: [
    { by: "overall", key: "overall", n: 2, values: Float64Array.from([20, 0.75, 0.5]) },
    { by: "tags", key: "हिन्दी", n: 1, values: Float64Array.from([10, 1, 1]) },
  ],
  queries: [
    { id: "प्रश्न-1", missing: false, info: { kind: "factual", R: 1, firstRelevant: 1 }, values: Float64Array.from([10, 1, 1]) },
    { id: "q2", missing: true, info: { kind: "lexical", R: 2, firstRelevant: null }, values: Float64Array.from([10, 0.5, 0]) },
  ],
  notes: ["2 answerable questions scored"],
  lists: {},
};

/** Display column where each line's last cell ends. */
const ends = (block: string) => block.split("\n").map((l) => displayWidth(l));

describe("retrieval report tables", () => {
  it("terminal: aligns by display width, so Devanagari ids and tags line up", () => {
    const text = renderTable([view], { perQuery: true });
    const [summary, perQuery] = text.split("\n\n");
    const summaryRows = summary!.split("\n").slice(1, 5).join("\n"); // header, rule, 2 rows
    expect(new Set(ends(summaryRows)).size).toBe(1);
    const qRows = perQuery!.trimEnd().split("\n").slice(1).join("\n");
    expect(new Set(ends(qRows)).size).toBe(1);
    expect(text).toContain("tag=हिन्दी");
    expect(text).toMatch(/q2 \(no output\) +lexical +2 +- +0\.5000 +0\.0000$/m);
    // counts are not means: no column for num_ret
    expect(text).not.toContain("num_ret");
  });

  it("markdown: right-aligned numeric columns, notes as a list", () => {
    const md = renderMarkdown([view], { perQuery: true });
    expect(md).toContain("| group | n | RR | R@10 |\n|:---|---:|---:|---:|\n| overall | 2 | 0.7500 | 0.5000 |");
    expect(md).toContain("| query | kind | R | first rel | RR | R@10 |\n|:---|:---|---:|---:|---:|---:|");
    expect(md).toContain("- 2 answerable questions scored");
  });
});
