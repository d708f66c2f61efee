import { stripMarkers } from "../../../golden/citations.js";
import type { Evidence } from "../../../golden/schema/items.js";
import { describeGap, pct, scoreSupport } from "../support.js";
import type { BaselineThresholds } from "../thresholds.js";
import { indexSources } from "../tokens.js";
import { type BaselineVerdict, chunkText, need } from "../types.js";

/**
 * Citation accuracy: does the cited chunk support the sentence citing it?
 * The same scoring as faithfulness, against that one chunk only. A cited
 * sentence is scored even when short: citing a chunk makes it a claim.
 */
export function citationAccuracy(e: Evidence, t: BaselineThresholds): BaselineVerdict {
  const sentence = stripMarkers(need("citation-accuracy", e, "sentence"));
  const cited = need("citation-accuracy", e, "cited");
  const score = scoreSupport(sentence, indexSources([chunkText(cited)]), t.supportCoverage, 0);
  if (score.supported) {
    return { verdict: "yes", reason: `Chunk ${cited.id} contains ${pct(score.coverage)} of the sentence's content words and all its numbers and codes.` };
  }
  return { verdict: "no", reason: `Chunk ${cited.id} does not support the sentence: ${describeGap(score, t.supportCoverage)}.` };
}
