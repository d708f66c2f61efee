import { createHash } from "node:crypto";

/**
 * Token log-probabilities as the test server returns them
 * (`choices[0].logprobs.content`), so the judge's P(yes) reading is tested
 * through the real SDK. The reply is cut into tokens roughly as a BPE
 * tokenizer would (words, digits, runs of punctuation, spaces), with the
 * verdict word one token; runs of non-ASCII text are cut every 2 bytes, as
 * byte-level tokenizers cut Devanagari, so a token's `token` text may hold a
 * replacement character while its `bytes` are exact. The verdict token's
 * alternatives spread P(yes) over `yes`/`Yes` and its complement over
 * `no`/`No`, with 2% on a word that is neither, so renormalising over the
 * yes/no variants gives back exactly the P(yes) scripted.
 */

interface Top {
  token: string;
  logprob: number;
  bytes: number[];
}

/** A seeded P(yes) for an item (from its user message), on the side of its verdict: (0.5, 1) for yes, (0, 0.5) for no. */
export function seededPYes(seed: number, user: string, verdict: "yes" | "no"): number {
  const h = createHash("sha256").update(`${seed}\0${user}`).digest();
  const u = h.readUInt32BE(0) / 2 ** 32;
  return verdict === "yes" ? 0.5 + 0.49 * u + 0.005 : 0.495 - 0.49 * u;
}

function pieces(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z]+|\d+|\s+|[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]+|[^\x00-\x7f]+/gu)) {
    const t = m[0];
    if (/^[\x00-\x7f]/.test(t)) {
      out.push(t);
      continue;
    }
    const bytes = Buffer.from(t, "utf8");
    for (let i = 0; i < bytes.length; i += 2) out.push(bytes.subarray(i, i + 2).toString("latin1"));
  }
  return out;
}

function top(text: string, logprob: number, latin1 = false): Top {
  const bytes = latin1 ? [...Buffer.from(text, "latin1")] : [...Buffer.from(text, "utf8")];
  return { token: latin1 ? Buffer.from(bytes).toString("utf8") : text, logprob, bytes };
}

/**
 * The token stream of `content` whose verdict value (after the last
 * `"verdict":"`) is one token with alternatives carrying `pYes`, and
 * `topN` alternatives per token (the request's `top_logprobs`).
 */
export function tokenLogprobs(content: string, pYes: number, topN: number): (Top & { top_logprobs: Top[] })[] {
  const marker = '"verdict":"';
  const at = content.lastIndexOf(marker);
  const start = at < 0 ? -1 : at + marker.length;
  const word = start < 0 ? "" : (/^[A-Za-z]+/.exec(content.slice(start))?.[0] ?? "");
  const parts: { text: string; verdict?: boolean }[] = [];
  const add = (s: string) => parts.push(...pieces(s).map((text) => ({ text })));
  if (word) {
    add(content.slice(0, start));
    parts.push({ text: word, verdict: true });
    add(content.slice(start + word.length));
  } else add(content);
  return parts.map((p) => {
    const latin1 = /^[\x80-\xff]/.test(p.text);
    if (!p.verdict) {
      const t = top(p.text, -0.0001, latin1);
      return { ...t, top_logprobs: topN > 0 ? [t] : [] };
    }
    const mass = 0.98;
    const alts: [string, number][] = [["yes", 0.9 * pYes * mass], ["Yes", 0.1 * pYes * mass], ["no", 0.9 * (1 - pYes) * mass], ["No", 0.1 * (1 - pYes) * mass], ["maybe", 0.02]];
    const list = alts.filter(([, p]) => p > 0).map(([t, p]) => top(t, Math.log(p))).sort((a, b) => b.logprob - a.logprob);
    const lower = word.toLowerCase();
    const chosen = list.find((t) => t.token === lower) ?? top(word, Math.log(0.5));
    return { ...chosen, token: word, bytes: [...Buffer.from(word)], top_logprobs: list.slice(0, topN) };
  });
}
