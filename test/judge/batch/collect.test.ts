import { afterEach, describe, expect, it } from "vitest";
import { InputErrors } from "../../../src/golden/errors.js";
import { collectBatch, openSubmissions, pollBatch } from "../../../src/judge/batch/collect.js";
import { cacheKey } from "../../../src/judge/schedule/cache.js";
import { startOpenAIServer, type Behaviour, type TestServer } from "../../server/openai-server.js";
import { setup, submitFile, truth } from "./helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function submitted(t: ReturnType<typeof setup>) {
  const r = await submitFile(t, t.files[0]!);
  return r.batchId!;
}

describe("batch status and collect (library)", () => {
  it("polls until finished, then stores every verdict under its custom_id and marks the batch collected", async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: truth(r), reason: "scripted" }), batchPlan: () => ({ polls: 2 }) });
    const t = setup(server.baseURL);
    const id = await submitted(t);
    expect((await pollBatch(t.sdk, t.endpoint, t.store, id)).status).toBe("in_progress");
    expect((await pollBatch(t.sdk, t.endpoint, t.store, id)).status).toBe("in_progress");
    expect(t.store.submissions()[0]).toMatchObject({ status: "in_progress", counts: { total: t.plan.requests.length } });
    const b = await pollBatch(t.sdk, t.endpoint, t.store, id);
    expect(b.status).toBe("completed");
    const r = await collectBatch({ sdk: t.sdk, endpoint: t.endpoint, cache: t.cache, store: t.store, batch: b });
    expect(r.counts).toMatchObject({ lines: t.plan.requests.length, verdicts: t.plan.requests.length, errors: 0, pending: 0, unknown: 0 });
    expect(r.returned).toBe(0);
    for (const q of t.plan.requests) {
      const v = t.cache.getDone(q.key)!;
      const user = (q.body.messages[1] as { content: string }).content;
      expect(v).toMatchObject({ verdict: truth({ user } as never), reason: "scripted", judge: "llm", rubric: q.rubric, model: "judge-model", servedModel: "served-judge-model", attempts: 1 });
      expect(v.usage!.prompt).toBeGreaterThan(0);
      expect(t.store.request(q.customId)).toMatchObject({ state: "done", batchId: id });
    }
    expect(t.cache.raw(t.plan.requests[0]!.key)).toMatch(/"choices"/);
    expect(openSubmissions(t.store, server.baseURL)).toEqual([]);
    expect(t.store.submissions()[0]!.collected).toBeDefined();
    expect(server.count).toBe(0);
    t.cache.close();
  });

  it("turns failed lines into error verdicts with their cause, which the next export asks again", async () => {
    server = await startOpenAIServer({
      batchPlan: () => ({ polls: 0 }),
      script: (r): Behaviour => (/gym/.test(r.user) ? { status: 500, message: "overloaded" } : /Casual leave/.test(r.user) ? { content: "I think so." } : { verdict: "yes" }),
    });
    const t = setup(server.baseURL);
    const id = await submitted(t);
    const r = await collectBatch({ sdk: t.sdk, endpoint: t.endpoint, cache: t.cache, store: t.store, batch: await pollBatch(t.sdk, t.endpoint, t.store, id) });
    const failed = t.plan.requests.filter((q) => /gym|Casual leave/.test((q.body.messages[1] as { content: string }).content));
    expect(failed.length).toBeGreaterThan(1);
    expect(r.counts.errors).toBe(failed.length);
    expect(r.counts.verdicts).toBe(t.plan.requests.length - failed.length);
    expect(r.counts.causes.map(([c]) => c).sort()).toEqual(["batch: http-500", "batch: parse"]);
    for (const q of failed) {
      expect(t.cache.getDone(q.key)).toBeUndefined();
      const stored = t.cache.get(q.key)!;
      expect(stored).toMatchObject({ status: "error", verdict: "error" });
      expect(stored.error).toMatch(/^batch: (http-500: overloaded|parse: no verdict found in the reply)$/);
      expect(t.store.request(q.customId)).toMatchObject({ state: "error", cause: stored.error });
    }
    t.cache.close();
  });

  it("returns the requests of an expired batch that never ran to pending, and keeps the ones that did", async () => {
    server = await startOpenAIServer({ batchPlan: () => ({ outcome: "expired", polls: 0, processed: 10 }) });
    const t = setup(server.baseURL);
    const id = await submitted(t);
    const r = await collectBatch({ sdk: t.sdk, endpoint: t.endpoint, cache: t.cache, store: t.store, batch: await pollBatch(t.sdk, t.endpoint, t.store, id) });
    const n = t.plan.requests.length;
    expect(r).toMatchObject({ status: "expired", returned: 0, counts: { verdicts: 10, pending: n - 10, errors: 0 } });
    expect(t.store.stateCounts()).toMatchObject({ done: 10, pending: n - 10, submitted: 0 });
    const pending = t.plan.requests.filter((q) => t.store.request(q.customId)!.state === "pending");
    expect(pending.every((q) => t.cache.get(q.key) === undefined)).toBe(true);
    expect(t.store.request(pending[0]!.customId)!.cause).toMatch(/^batch: batch_expired: /);
    t.cache.close();
  });

  it("returns every request of a failed batch to pending with the batch's error", async () => {
    server = await startOpenAIServer({ batchPlan: () => ({ outcome: "failed", polls: 0, errors: [{ code: "token_limit_exceeded", message: "Enqueued token limit reached for gpt-4o-mini." }] }) });
    const t = setup(server.baseURL);
    const id = await submitted(t);
    const r = await collectBatch({ sdk: t.sdk, endpoint: t.endpoint, cache: t.cache, store: t.store, batch: await pollBatch(t.sdk, t.endpoint, t.store, id) });
    expect(r).toMatchObject({ status: "failed", returned: t.plan.requests.length, batchErrors: ["token_limit_exceeded: Enqueued token limit reached for gpt-4o-mini."] });
    expect(t.store.request(t.plan.requests[0]!.customId)).toMatchObject({ state: "pending", cause: `batch ${id} failed: token_limit_exceeded: Enqueued token limit reached for gpt-4o-mini.` });
    t.cache.close();
  });

  it("refuses a malformed output file with its line, storing nothing, and collects it once it is whole", async () => {
    server = await startOpenAIServer({ batchPlan: () => ({ polls: 0 }) });
    const t = setup(server.baseURL);
    const id = await submitted(t);
    const b = await pollBatch(t.sdk, t.endpoint, t.store, id);
    const out = server.batch.files.find((f) => f.id === b.output_file_id)!;
    const good = out.content;
    const lines = good.toString("utf8").split("\n");
    out.content = Buffer.from([lines[0], "{truncated", ...lines.slice(1)].join("\n"));
    const err = await collectBatch({ sdk: t.sdk, endpoint: t.endpoint, cache: t.cache, store: t.store, batch: b }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputErrors);
    expect((err as Error).message).toMatch(new RegExp(`^batch ${id} output file ${out.id}:2: not valid JSON`));
    expect(t.cache.countDone()).toBe(0);
    expect(openSubmissions(t.store, server.baseURL)).toHaveLength(1);
    expect(t.store.stateCounts().submitted).toBe(t.plan.requests.length);
    out.content = good;
    const r = await collectBatch({ sdk: t.sdk, endpoint: t.endpoint, cache: t.cache, store: t.store, batch: b });
    expect(r.counts.verdicts).toBe(t.plan.requests.length);
    expect(t.cache.countDone()).toBe(t.plan.requests.length);
    t.cache.close();
  });

  it("returns requests to pending when the server no longer has a result file", async () => {
    server = await startOpenAIServer({ batchPlan: () => ({ outcome: "expired", polls: 0, processed: 5 }) });
    const t = setup(server.baseURL);
    const id = await submitted(t);
    const b = await pollBatch(t.sdk, t.endpoint, t.store, id);
    server.batch.files.splice(server.batch.files.findIndex((f) => f.id === b.output_file_id), 1);
    const r = await collectBatch({ sdk: t.sdk, endpoint: t.endpoint, cache: t.cache, store: t.store, batch: b });
    const n = t.plan.requests.length;
    expect(r).toMatchObject({ returned: 5, counts: { verdicts: 0, pending: n - 5 }, batchErrors: [`the output file ${b.output_file_id} is no longer on the server`] });
    const lost = t.plan.requests.map((q) => t.store.request(q.customId)!).filter((q) => q.cause?.includes("no longer"));
    expect(lost).toHaveLength(5);
    expect(lost[0]).toMatchObject({ state: "pending", cause: `batch ${id} expired: no result for this request (the output file ${b.output_file_id} is no longer on the server)` });
    expect(t.store.stateCounts()).toMatchObject({ pending: n, submitted: 0 });
    t.cache.close();
  });

  it("counts as judged the exported requests whose verdict came another way (an online run)", async () => {
    server = await startOpenAIServer();
    const t = setup(server.baseURL);
    const [a, b] = t.plan.requests;
    for (const q of [a!, b!]) t.cache.put(q.key, { status: "done", verdict: "yes", reason: "online", judge: "llm", rubric: q.rubric, time: "t" });
    expect(t.store.stateCounts().done).toBe(0);
    expect(t.store.reconcile()).toBe(2);
    expect(t.store.stateCounts()).toMatchObject({ done: 2, exported: t.plan.requests.length - 2 });
    t.cache.close();
  });

  it("never replaces a committed verdict by a late error, and keeps it done", async () => {
    server = await startOpenAIServer({ batchPlan: () => ({ polls: 0 }), script: () => ({ status: 500 }) });
    const t = setup(server.baseURL);
    const first = t.plan.requests[0]!;
    const id = await submitted(t);
    t.cache.put(cacheKey(first.key.fingerprint, first.key.inputHash, 0), { status: "done", verdict: "no", reason: "online", judge: "llm", rubric: first.rubric, time: "t" });
    const r = await collectBatch({ sdk: t.sdk, endpoint: t.endpoint, cache: t.cache, store: t.store, batch: await pollBatch(t.sdk, t.endpoint, t.store, id) });
    expect(r.counts).toMatchObject({ verdicts: 1, errors: t.plan.requests.length - 1 });
    expect(t.cache.getDone(first.key)).toMatchObject({ verdict: "no", reason: "online" });
    expect(t.store.request(first.customId)!.state).toBe("done");
    t.cache.close();
  });
});
