import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIServer, type TestServer } from "./openai-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const jsonSchema = { type: "json_schema" as const, json_schema: { name: "v", strict: true, schema: { type: "object" } } };

describe("the scriptable OpenAI-compatible test server", () => {
  it("answers chat completions through the real SDK and counts requests", async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: r.user.includes("bad") ? "no" : "yes", reason: "scripted" }) });
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: "x", maxRetries: 0 });
    const good = await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "good" }], response_format: jsonSchema });
    const bad = await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "bad" }] });
    expect(JSON.parse(good.choices[0]!.message.content!)).toEqual({ reason: "scripted", verdict: "yes" });
    expect(bad.choices[0]!.message.content).toMatch(/^Let me check the material\.\n\{"reason":"scripted","verdict":"no"\}$/);
    expect(good.model).toBe("served-m");
    expect(good.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(server.count).toBe(2);
    expect(server.requests.map((r) => r.info.jsonSchema)).toEqual([true, false]);
  });

  it("rejects json_schema with a 400 when built without structured outputs", async () => {
    server = await startOpenAIServer({ jsonSchema: false });
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: "x", maxRetries: 0 });
    await expect(sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "q" }], response_format: jsonSchema })).rejects.toMatchObject({ status: 400, param: "response_format" });
    expect((await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "q" }] })).choices).toHaveLength(1);
  });

  it("scripts status codes with headers, and 404s other routes", async () => {
    server = await startOpenAIServer({ script: () => ({ status: 429, headers: { "retry-after": "7" }, message: "slow down" }) });
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: "x", maxRetries: 0 });
    const err = await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "q" }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, message: "429 slow down" });
    expect((err as { headers: Headers }).headers.get("retry-after")).toBe("7");
    expect((await fetch(server.baseURL + "/models")).status).toBe(404);
    expect(server.count).toBe(1);
  });

  it("adds latency and closes cleanly with hanging requests open", async () => {
    server = await startOpenAIServer({ latencyMs: 100, script: (r) => (r.index === 0 ? { hang: true } : { verdict: "yes" }) });
    const hung = fetch(server.baseURL + "/chat/completions", { method: "POST", body: JSON.stringify({ model: "m", messages: [] }) }).catch(() => "closed");
    const t0 = Date.now();
    const ok = await fetch(server.baseURL + "/chat/completions", { method: "POST", body: JSON.stringify({ model: "m", messages: [] }) });
    expect(ok.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(95);
    expect(server.maxInFlight).toBe(2);
    await server.close();
    server = undefined;
    expect(await hung).toBe("closed");
  });
});
