import { request } from "node:http";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Label } from "../../src/golden/schema/items.js";
import { startReviewServer, type ReviewServer } from "../../src/review/server.js";
import { ReviewSession } from "../../src/review/session.js";
import { CLIENT_JS } from "../../src/review/page/client.js";
import { entry, judgmentOf, workspace } from "./helpers.js";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: any;
}

/** A raw HTTP request with full control of headers (fetch forbids setting Host). */
function call(port: number, method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer; chunks?: Buffer[] } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers: { host: `127.0.0.1:${port}`, ...opts.headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        const body = Buffer.concat(parts).toString("utf8");
        let json: unknown = null;
        try {
          json = JSON.parse(body);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
      });
    });
    req.on("error", reject);
    if (opts.chunks) {
      for (const c of opts.chunks) req.write(c);
      req.end();
    } else req.end(opts.body);
  });
}

const es = [entry("q1", "A [2]."), entry("q2", "B."), entry("q3", "C.")];
let server: ReviewServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(provenance: "human" | "author" = "human", next?: string, resume?: string) {
  const w = workspace(es, [judgmentOf(es[0]!, "no", "the judge's secret reason")]);
  const session = new ReviewSession({ queueFile: w.queue, rubricsDir: w.rubrics, judgmentsFile: w.judgments, labelsDir: w.labels, annotator: "asha", provenance });
  server = await startReviewServer(session, { ...(next === undefined ? {} : { next }), ...(resume === undefined ? {} : { resume }) });
  const s = server;
  const json = (body: unknown, token = s.token, extra: Record<string, string> = {}) => ({ headers: { "content-type": "application/json", "x-ragjudge-token": token, ...extra }, body: JSON.stringify(body) });
  const labelsFile = join(w.labels, "asha.jsonl");
  const lines = () => (existsSync(labelsFile) ? readFileSync(labelsFile, "utf8").trim().split("\n").filter(Boolean) : []);
  return { w, s, json, lines };
}

describe("review server", () => {
  it("listens on 127.0.0.1 and serves the page with a strict CSP and no inline script", async () => {
    const { s } = await start();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await call(s.port, "GET", "/");
    expect(page.status).toBe(200);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.body).toContain(`content="${s.token}"`);
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    const js = await call(s.port, "GET", "/app.js");
    expect(js.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(js.body).toBe(CLIENT_JS);
  });

  it("answers 403 to API calls without the token or with a wrong one, and writes nothing", async () => {
    const { s, json, lines } = await start();
    expect((await call(s.port, "GET", "/api/item?i=0")).status).toBe(403);
    expect((await call(s.port, "GET", "/api/item?i=0", { headers: { "x-ragjudge-token": "nope" } })).status).toBe(403);
    const body = { index: 0, inputHash: es[0]!.inputHash, label: "yes" };
    const noToken = await call(s.port, "POST", "/api/label", { headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(noToken.status).toBe(403);
    expect((await call(s.port, "POST", "/api/label", json(body, s.token.slice(0, -1) + "x"))).status).toBe(403);
    expect(lines()).toEqual([]);
    expect((await call(s.port, "POST", "/api/label", json(body))).status).toBe(200);
    expect(lines()).toHaveLength(1);
  });

  it("answers a changed label on a drawn item with a note when it moves to the judge's verdict (the gate keeps the earlier one), and the page shows it", async () => {
    const drawn = [entry("q1", "A.", { over: { draw: "0123456789abcdef" } })];
    const w = workspace(drawn, [judgmentOf(drawn[0]!, "yes", "r")]);
    const session = new ReviewSession({ queueFile: w.queue, rubricsDir: w.rubrics, judgmentsFile: w.judgments, labelsDir: w.labels, annotator: "asha" });
    server = await startReviewServer(session, {});
    const s = server;
    const post = (label: string) => call(s.port, "POST", "/api/label", { headers: { "content-type": "application/json", "x-ragjudge-token": s.token }, body: JSON.stringify({ index: 0, inputHash: drawn[0]!.inputHash, label }) });
    expect((await post("no")).json.note).toBeUndefined();
    expect((await post("yes")).json.note).toMatch(/^for the trust gate your earlier "no" on this drawn item still counts/);
    expect((await post("no")).json.note).toBeUndefined();
    expect(CLIENT_JS).toContain('r && r.note ? " Note: " + r.note');
  });

  it("refuses a foreign Host (DNS rebinding) and a cross-origin write even with the token", async () => {
    const { s, json, lines } = await start();
    expect((await call(s.port, "GET", "/", { headers: { host: "evil.example:80" } })).status).toBe(421);
    const body = { index: 0, inputHash: es[0]!.inputHash, label: "yes" };
    expect((await call(s.port, "POST", "/api/label", json(body, s.token, { origin: "http://evil.example" }))).status).toBe(403);
    expect((await call(s.port, "POST", "/api/label", json(body, s.token, { "sec-fetch-site": "cross-site" }))).status).toBe(403);
    expect((await call(s.port, "POST", "/api/label", json(body, s.token, { origin: `http://127.0.0.1:${s.port}` }))).status).toBe(200);
    expect(lines()).toHaveLength(1);
  });

  it("limits the body size: 413 by declared length and by streamed length", async () => {
    const { s, lines } = await start();
    const big = JSON.stringify({ index: 0, inputHash: es[0]!.inputHash, label: "yes", note: "x".repeat(20_000) });
    const declared = await call(s.port, "POST", "/api/label", { headers: { "content-type": "application/json", "x-ragjudge-token": s.token }, body: big });
    expect(declared.status).toBe(413);
    const chunks = Array.from({ length: 20 }, () => Buffer.from("x".repeat(1024)));
    const streamed = await call(s.port, "POST", "/api/label", { headers: { "content-type": "application/json", "x-ragjudge-token": s.token, "transfer-encoding": "chunked" }, chunks });
    expect(streamed.status).toBe(413);
    expect(lines()).toEqual([]);
  });

  it("validates bodies with zod: 400 naming the field; 415 for a non-JSON content type", async () => {
    const { s, json, lines } = await start();
    const h = es[0]!.inputHash;
    const bad = async (body: unknown) => call(s.port, "POST", "/api/label", json(body));
    expect((await bad({ index: 0, inputHash: h, label: "maybe" })).json.error).toMatch(/^label: /);
    expect((await bad({ index: 0, inputHash: h, label: "yes", extra: 1 })).status).toBe(400);
    expect((await bad({ index: -1, inputHash: h, label: "yes" })).status).toBe(400);
    expect((await bad({ index: 0, inputHash: "abc", label: "yes" })).json.error).toMatch(/^inputHash: /);
    expect((await bad({ index: 0, inputHash: h, label: "yes", note: "n".repeat(2001) })).json.error).toMatch(/^note: /);
    expect((await call(s.port, "POST", "/api/label", { headers: { "content-type": "application/json", "x-ragjudge-token": s.token }, body: "{not json" })).status).toBe(400);
    expect((await call(s.port, "POST", "/api/label", { headers: { "content-type": "text/plain", "x-ragjudge-token": s.token }, body: JSON.stringify({ index: 0, inputHash: h, label: "yes" }) })).status).toBe(415);
    expect((await bad({ index: 0, inputHash: es[1]!.inputHash, label: "yes" })).status).toBe(409);
    expect((await bad({ index: 7, inputHash: h, label: "yes" })).status).toBe(404);
    expect(lines()).toEqual([]);
  });

  it("a label is on disk when the POST returns; the judge stays hidden until then", async () => {
    const { s, json, lines } = await start();
    const get = (p: string) => call(s.port, "GET", p, { headers: { "x-ragjudge-token": s.token } });
    const item = await get("/api/item?i=0");
    expect(item.body).not.toContain("secret reason");
    expect((await get("/api/reveal?i=0")).status).toBe(403);
    const r = await call(s.port, "POST", "/api/label", json({ index: 0, inputHash: es[0]!.inputHash, label: "yes", note: "ok" }));
    expect(r.status).toBe(200);
    expect(r.json.next).toBe(1);
    const written = lines().map((l) => Label.parse(JSON.parse(l)));
    expect(written).toEqual([r.json.saved]);
    const reveal = await get("/api/reveal?i=0");
    expect(reveal.json.judgments[0]).toMatchObject({ verdict: "no", reason: "the judge's secret reason" });
    const skip = await call(s.port, "POST", "/api/skip", json({ index: 1, inputHash: es[1]!.inputHash }));
    expect(skip.json).toMatchObject({ next: 2, state: { resumeAt: 2, firstSkipped: 1, counts: { labelled: 1, skipped: 1, open: 1 } } });
    expect((await get("/api/item?i=x")).status).toBe(400);
  });

  it("says on the page and in the state whose labels these are: author labels are not called human", async () => {
    const { s, json, lines } = await start("author");
    const page = await call(s.port, "GET", "/");
    expect(page.body).toContain("(provenance author: the project&#39;s own labels, not human evidence)");
    const state = await call(s.port, "GET", "/api/state", { headers: { "x-ragjudge-token": s.token } });
    expect(state.json.provenance).toBe("author");
    await call(s.port, "POST", "/api/label", json({ index: 0, inputHash: es[0]!.inputHash, label: "yes" }));
    expect(Label.parse(JSON.parse(lines()[0]!)).provenance).toBe("author");
    await s.close();
    const human = await start("human");
    expect((await call(human.s.port, "GET", "/")).body).toContain("(provenance human)");
  });

  it("shows the next command on the done and finished screens as text (markup in a path is escaped), and none when not given", async () => {
    const { s } = await start("human", "ragjudge calibrate --config '<script>alert(1)</script>.json'");
    const body = (await call(s.port, "GET", "/")).body;
    const shown = "<code>ragjudge calibrate --config &#39;&lt;script&gt;alert(1)&lt;/script&gt;.json&#39;</code>";
    expect(body.split(shown)).toHaveLength(3); // once on each screen
    expect(body).not.toContain("<script>alert");
    await s.close();
    const without = await start();
    expect((await call(without.s.port, "GET", "/")).body).not.toContain('class="next"');
    await without.s.close();
    // the command that resumes, on both screens, hidden until the script sees items still to go
    const resuming = await start("human", "ragjudge calibrate", "ragjudge review --annotator 'a b'");
    const page = (await call(resuming.s.port, "GET", "/")).body;
    expect(page.split('<p class="resume" hidden><span class="to-go"></span> To resume, run this in a terminal:<br><code>ragjudge review --annotator &#39;a b&#39;</code></p>')).toHaveLength(3);
  });

  it("two tabs labelling one item at once: the second sees the first's label and chooses; both stay in the history", async () => {
    const { s, json, lines } = await start();
    const get = (p: string) => call(s.port, "GET", p, { headers: { "x-ragjudge-token": s.token } });
    const h = es[0]!.inputHash;
    // Both tabs show item 0 unlabelled.
    expect((await get("/api/item?i=0")).json.label).toBeUndefined();
    const first = await call(s.port, "POST", "/api/label", json({ index: 0, inputHash: h, label: "yes", seen: null }));
    expect(first.status).toBe(200);
    const second = await call(s.port, "POST", "/api/label", json({ index: 0, inputHash: h, label: "no", seen: null }));
    expect(second.status).toBe(409);
    expect(second.json.error).toMatch(/item 1 was labelled "yes" at .* while this page showed it unlabelled/);
    expect(second.json.conflict).toEqual({ label: "yes", time: first.json.saved.time });
    expect(lines()).toHaveLength(1);
    // The second tab chooses its own answer, knowingly: it is saved, and the first stays in the history.
    const chosen = await call(s.port, "POST", "/api/label", json({ index: 0, inputHash: h, label: "no", seen: first.json.saved.time }));
    expect(chosen.status).toBe(200);
    expect(lines().map((l) => JSON.parse(l).label)).toEqual(["yes", "no"]);
    expect(chosen.json.state.counts).toMatchObject({ labelled: 1, open: 2 });
  });

  it("picks up labels another process appends while it runs, and refuses with a message when they do not read", async () => {
    const { w, s } = await start();
    const get = (p: string) => call(s.port, "GET", p, { headers: { "x-ragjudge-token": s.token } });
    expect((await get("/api/state")).json.counts).toMatchObject({ labelled: 0, open: 3 });
    const e = es[1]!;
    const label = { variant: e.variant, question: e.question, rubric: e.rubric, unit: e.unit, inputHash: e.inputHash, label: "no", annotator: "asha", provenance: "human", frame: "random", time: "2026-12-01T00:00:00.000Z" };
    mkdirSync(w.labels, { recursive: true });
    appendFileSync(join(w.labels, "asha.jsonl"), JSON.stringify(label) + "\n");
    expect((await get("/api/state")).json.counts).toMatchObject({ labelled: 1, open: 2 });
    expect((await get("/api/item?i=1")).json.label).toMatchObject({ label: "no", time: "2026-12-01T00:00:00.000Z" });
    appendFileSync(join(w.labels, "asha.jsonl"), "{not json\n");
    const broken = await get("/api/state");
    expect(broken.status).toBe(409);
    expect(broken.json.error).toMatch(/asha\.jsonl:2: not valid JSON/);
  });

  it("Finish stops the server", async () => {
    const { s, json } = await start();
    const r = await call(s.port, "POST", "/api/finish", json({}));
    expect(r.status).toBe(200);
    await s.closed;
    await expect(call(s.port, "GET", "/")).rejects.toThrow();
  });
});

describe("page script", () => {
  it("parses as JavaScript and never assigns markup from data", () => {
    expect(() => new Function(CLIENT_JS)).not.toThrow();
    expect(CLIENT_JS).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
  });
});
