import { citedClaims, expandClaims } from "../items/claims.js";
import type { JudgeInputs } from "../items/inputs.js";
import type { Item } from "../items/items.js";
import type { JudgeSettings } from "../judges/settings.js";
import { JudgeCache } from "../schedule/cache.js";
import { JudgeClient } from "../transport/client.js";
import type { Rubric } from "../rubric/rubric.js";
import { claimsKey, extractClaims, type Extraction, type ExtractOptions } from "./extract.js";
import { latestClaims } from "./store.js";

/** The items a run judges, and the extraction that made their claims (when the claims rubric did). */
export interface PreparedItems {
  items: Item[];
  extraction?: Extraction;
}

/** The client's SDK as extraction calls it, loaded at the first call: an extraction answered from the cache never loads it. */
function lazySdk(client: JudgeClient): ExtractOptions["sdk"] {
  return { chat: { completions: { create: async (body, opts) => (await client.sdk()).chat.completions.create(body, opts) } } };
}

/**
 * The items a run judges under claim-level faithfulness with the `claims`
 * rubric: an LLM judge first extracts each answer's claims (cached under the
 * extraction's own fingerprint, extract.ts) and the faithfulness items are
 * made of those; the baseline judge, which has no model, keeps the sentence
 * splitter (or the output's explicit citation sentences, as without the rubric). Without the claims rubric (or at unit answer) the items are the
 * inputs' as built.
 *
 * @example
 * const { items } = await prepareClaimItems(inputs, settings, cacheDir, log);
 */
export async function prepareClaimItems(inputs: Pick<JudgeInputs, "itemSet" | "answerItemSet" | "claimsRubric" | "variants">, settings: JudgeSettings, cacheDir: string, log: (line: string) => void): Promise<PreparedItems> {
  const rubric = inputs.claimsRubric;
  if (!rubric || inputs.itemSet === inputs.answerItemSet) return { items: inputs.itemSet.items };
  if (settings.kind !== "openai") {
    log(`claims: the baseline judge has no model to extract claims: each answer's claims are its sentences\n`);
    return { items: expandClaims(inputs.answerItemSet, { unit: "claim", claimsOf: citedClaims(inputs.variants) }).items };
  }
  const { cache, close } = JudgeCache.openLeased(cacheDir, "ragjudge claims extraction");
  try {
    const client = new JudgeClient({ baseURL: settings.baseURL, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs, policy: { maxRetries: settings.maxRetries } });
    const extraction = await extractClaims({ rubric, items: inputs.answerItemSet.items, settings, cache, sdk: lazySdk(client), log });
    log(`claims: ${extraction.claims.size} answers' claims extracted by ${settings.model} (fingerprint ${extraction.fingerprint.slice(0, 12)}; ${extraction.cached} from the cache, ${extraction.calls} calls)\n`);
    const items = expandClaims(inputs.answerItemSet, { unit: "claim", claimsOf: (it) => extraction.claims.get(claimsKey(rubric, it)) }).items;
    return { items, extraction };
  } finally {
    close();
  }
}

/**
 * The claims judges extracted into the cache in `dir` (the latest of each
 * answer), for `loadJudgeInputs`' `claimsFrom`: `sample` and `review`
 * rebuild the claim items a run judged without a judge of their own.
 *
 * @example
 * loadJudgeInputs(resolved, { claimsFrom: cachedClaimsFrom(resolved.outPath(resolved.config.cacheDir)) })
 */
export function cachedClaimsFrom(dir: string): (claimsRubric: Rubric) => (answerItem: Item) => readonly string[] | undefined {
  return (rubric) => {
    const cache = JudgeCache.openReadOnly(dir);
    let stored = new Map<string, string[]>();
    if (cache) {
      try {
        stored = latestClaims(cache);
      } finally {
        cache.close();
      }
    }
    return (it) => stored.get(claimsKey(rubric, it));
  };
}
