/** The test server's token log-probabilities, through the real SDK: seeded or scripted per item, and the two ways a server lacks them. */
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { pYesFromLogprobs } from "../../src/judge/verdict/logprobs.js";
import { seededPYes } from "./logprobs.js";
import { startOpenAIServer, type TestServer } from "./openai-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = (s: TestServer, user: string, extra: Record<string, unknown> = { logprobs: true, top_logprobs: 5 }) =>
  new OpenAI({ baseURL: s.baseURL, apiKey: "x", maxRetries: 0 }).chat.completions.create({ model: "m", messages: [{ role: "user", content: user }], ...extra } as OpenAI.ChatCompletionCreateParamsNonStreaming);

describe("the test server's log-probabilities", () => {
  it("returns tokens that spell the reply byte for byte, with top_logprobs as asked, carrying the scripted P(yes)", async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: "no", reason: "स्रोत में नहीं है।", pYes: r.user === "a" ? 0.1 : 0.35 }) });
    for (const [user, p] of [["a", 0.1], ["b", 0.35]] as const) {
      const c = await ask(server, user);
      const content = c.choices[0]!.message.content!;
      const tokens = c.choices[0]!.logprobs!.content!;
      expect(Buffer.concat(tokens.map((t) => Buffer.from(t.bytes!))).toString("utf8")).toBe(content);
      const verdict = tokens.find((t) => t.token === "no")!;
      expect(verdict.top_logprobs).toHaveLength(5);
      expect(pYesFromLogprobs(content, tokens, "no")).toEqual({ ok: true, pYes: expect.closeTo(p, 12) });
    }
    const plain = await ask(server, "a", {});
    expect(plain.choices[0]!.logprobs).toBeNull();
  });

  it("seeds P(yes) per item on the verdict's side when the script gives none; the seed changes it", () => {
    expect(seededPYes(1, "item", "yes")).toBe(seededPYes(1, "item", "yes"));
    expect(seededPYes(1, "item", "yes")).not.toBe(seededPYes(2, "item", "yes"));
    for (const u of ["a", "b", "c", "d"]) {
      expect(seededPYes(1, u, "yes")).toBeGreaterThan(0.5);
      expect(seededPYes(1, u, "no")).toBeLessThan(0.5);
    }
  });

  it("without them: a 400 naming the parameter (reject) or a reply with logprobs null (ignore)", async () => {
    server = await startOpenAIServer({ logprobs: "reject" });
    await expect(ask(server, "q")).rejects.toMatchObject({ status: 400, param: "logprobs" });
    expect((await ask(server, "q", {})).choices[0]!.message.content).toContain('"verdict":"yes"');
    await server.close();
    server = await startOpenAIServer({ logprobs: "ignore" });
    expect((await ask(server, "q")).choices[0]!.logprobs).toBeNull();
  });
});
