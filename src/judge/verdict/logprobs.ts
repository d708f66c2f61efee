/**
 * P(yes) of a verdict from the token log-probabilities an OpenAI-compatible
 * server returns with a reply (`logprobs: true, top_logprobs: k`). A
 * confidence beside the verdict, never a second verdict: when the rule below
 * cannot be applied the verdict has no pYes, and nothing is guessed.
 *
 * The rule (version {@link LOGPROBS_VERSION}, part of the fingerprint of a
 * judge that asks for log-probabilities):
 *
 * 1. The reply must be JSON (whole, or an object inside the text): the value
 *    of the `"verdict"` field of the LAST object that has one (the object
 *    {@link parseReply} decides by) is located by a JSON-aware scan, so a
 *    `verdict` inside the reason's string never counts. A verdict line
 *    (`Verdict: no`) gives no pYes.
 * 2. The tokens must spell the reply exactly: by their `bytes` when every
 *    token has them (so a Devanagari reason split mid-character still maps),
 *    else by their text.
 * 3. The token holding the value's first character is the verdict token; its
 *    text from that character on must hold the whole verdict word (`yes` or
 *    `no`, any case); a verdict split over two tokens gives no pYes.
 * 4. Each alternative in its `top_logprobs` (and the chosen token itself)
 *    that shares the token's text before the value is classed by the word it
 *    starts with there: yes, no, or neither (ignored). Duplicates count once.
 * 5. P(yes) = Σ exp(logprob) over yes alternatives / Σ exp(logprob) over yes
 *    and no alternatives. The mass outside the top k is unknown and left
 *    out, so a verdict with no "no" among the alternatives has P(yes) = 1.
 * 6. The chosen token's class must be the parsed verdict; otherwise no pYes.
 */

/** Version of the rule above; in the fingerprint of a judge that asks for log-probabilities. */
export const LOGPROBS_VERSION = 1;

/** One alternative token as the server lists it. */
export interface TopLogprob {
  token: string;
  logprob: number;
  bytes?: number[] | null;
}

/** One generated token with its alternatives (`choices[0].logprobs.content[i]`). */
export interface TokenLogprob extends TopLogprob {
  top_logprobs?: TopLogprob[] | null;
}

/** P(yes), or why there is none. */
export type PYesResult = { ok: true; pYes: number } | { ok: false; cause: string };

/**
 * The character offset where the string value of the last `"verdict"` key
 * (at any object depth; quotes outside braces are prose) starts, just past its opening quote; -1 when there
 * is none. Strings and escapes are honoured, so keys inside strings are not
 * keys.
 */
export function verdictValueOffset(text: string): number {
  let found = -1;
  let i = 0;
  /** The last string read outside a string, and where it ended (to tell a key from a value). */
  let lastString: string | undefined;
  let afterColonOf: string | undefined;
  let depth = 0;
  while (i < text.length) {
    const c = text[i]!;
    // Quotes count only inside braces, as parseReply reads objects out of prose.
    if (c === '"' && depth > 0) {
      const start = i + 1;
      let j = start;
      let value = "";
      for (; j < text.length; j++) {
        const d = text[j]!;
        if (d === "\\") {
          value += text[j + 1] ?? "";
          j++;
        } else if (d === '"') break;
        else value += d;
      }
      if (afterColonOf === "verdict") found = start;
      afterColonOf = undefined;
      lastString = value;
      i = j + 1;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    if (c === ":") {
      afterColonOf = lastString;
      lastString = undefined;
    } else if (!/\s/u.test(c)) {
      afterColonOf = undefined;
      lastString = undefined;
    }
    i++;
  }
  return found;
}

const YES_NO = /^(yes|no)/iu;

function classOf(rest: string): "yes" | "no" | undefined {
  const m = YES_NO.exec(rest);
  return m ? (m[1]!.toLowerCase() as "yes" | "no") : undefined;
}

function tokenBytes(t: TopLogprob): Buffer | undefined {
  return Array.isArray(t.bytes) && t.bytes.every((b) => Number.isInteger(b) && b >= 0 && b < 256) ? Buffer.from(t.bytes) : undefined;
}

/**
 * Applies the rule of this module to a reply's content, its token stream and
 * its parsed verdict.
 *
 * @example
 * pYesFromLogprobs('{"reason":"r","verdict":"yes"}', tokens, "yes") // { ok: true, pYes: 0.93 }
 */
export function pYesFromLogprobs(content: string, tokens: readonly TokenLogprob[] | null | undefined, verdict: "yes" | "no"): PYesResult {
  if (!Array.isArray(tokens) || tokens.length === 0) return { ok: false, cause: "no token log-probabilities in the reply" };
  const value = verdictValueOffset(content);
  if (value < 0) return { ok: false, cause: "no JSON verdict field in the reply" };
  const buffers = tokens.map(tokenBytes);
  const byBytes = buffers.every((b) => b !== undefined);
  // Offsets in the unit the tokens are measured in: UTF-8 bytes, or UTF-16 code units of their text.
  const target = byBytes ? Buffer.byteLength(content.slice(0, value), "utf8") : value;
  const spelled = byBytes ? Buffer.concat(buffers as Buffer[]).equals(Buffer.from(content, "utf8")) : tokens.map((t) => t.token).join("") === content;
  if (!spelled) return { ok: false, cause: "the tokens do not spell the reply" };
  let start = 0;
  let k = 0;
  for (; k < tokens.length; k++) {
    const len = byBytes ? buffers[k]!.length : tokens[k]!.token.length;
    if (target < start + len) break;
    start += len;
  }
  const chosen = tokens[k]!;
  const cut = target - start;
  const text = (t: TopLogprob): string | undefined => {
    if (!byBytes) return t.token;
    const b = tokenBytes(t);
    return b ? b.toString("utf8") : t.token;
  };
  const chosenText = text(chosen)!;
  // The prefix before the value (an opening quote, a space), in the token's own unit.
  const prefixOf = (t: TopLogprob): string | undefined => (byBytes ? tokenBytes(t)?.subarray(0, cut).toString("latin1") : t.token.slice(0, cut));
  const restOf = (t: TopLogprob): string => (byBytes ? (tokenBytes(t) ?? Buffer.from(t.token, "utf8")).subarray(cut).toString("utf8") : t.token.slice(cut));
  const chosenRest = restOf(chosen);
  const chosenClass = classOf(chosenRest);
  if (!chosenClass || !chosenRest.toLowerCase().startsWith(chosenClass)) return { ok: false, cause: `the verdict token ${JSON.stringify(chosenText)} does not hold the whole verdict word` };
  if (chosenClass !== verdict) return { ok: false, cause: `the verdict token says ${chosenClass}, the reply ${verdict}` };
  const prefix = prefixOf(chosen);
  const seen = new Set<string>();
  let yes = 0;
  let no = 0;
  for (const alt of [chosen, ...(chosen.top_logprobs ?? [])]) {
    if (typeof alt?.token !== "string" || typeof alt.logprob !== "number" || !Number.isFinite(alt.logprob)) continue;
    const id = text(alt)!;
    if (seen.has(id)) continue;
    seen.add(id);
    if (prefixOf(alt) !== prefix) continue;
    const cls = classOf(restOf(alt));
    if (cls === "yes") yes += Math.exp(alt.logprob);
    else if (cls === "no") no += Math.exp(alt.logprob);
  }
  if (!(yes + no > 0)) return { ok: false, cause: "the verdict token's alternatives carry no probability" };
  return { ok: true, pYes: yes / (yes + no) };
}
