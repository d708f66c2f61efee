import type { AttributionRow } from "../../../scripts/attribution/data.js";

/**
 * Invented rows for the measurement scripts: half supported (the claim
 * restates its reference), half not (the claim's words are not in it), with
 * varied wording so that both labels survive every training fold.
 */
export function richRows(n: number): AttributionRow[] {
  const topics = ["paid leave", "parental leave", "remote work", "travel claims", "laptop repairs", "health cover"];
  return Array.from({ length: n }, (_, i) => {
    const topic = topics[i % topics.length]!;
    const ref = `Policy ${i} on ${topic}: staff must ask their manager before the request is approved by the office.`;
    return {
      id: `Rich_${i}`,
      question: `What does policy ${i} say about ${topic}?`,
      claim: i % 2 === 0 ? `Policy ${i} on ${topic} says staff must ask their manager first.` : `Policy ${i} lets contractors ${i % 4 === 1 ? "skip" : "avoid"} every quarterly security review entirely.`,
      references: i % 5 === 0 ? [ref, "Unrelated text about the canteen."] : [ref],
      attribution_label: i % 2 === 0 ? "attributable" : "not attributable",
      src_dataset: i % 3 === 0 ? "SetA" : "SetB",
    };
  });
}
