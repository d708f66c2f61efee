import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { leanFetch } from "../../../src/judge/transport/http-fetch.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

/** A server answering by path: /json echoes the request, /gzip compresses, /stall sends half a body, /empty is a 204. */
async function start(): Promise<string> {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += String(d)));
    req.on("end", () => {
      if (req.url === "/json") {
        res.writeHead(201, { "content-type": "application/json", "x-request-id": "r1" });
        res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization, length: req.headers["content-length"] }));
      } else if (req.url === "/gzip") {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(gzipSync(JSON.stringify({ ok: "zipped é" })));
      } else if (req.url === "/stall") {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        res.write('{"half":');
      } else if (req.url === "/hang") {
        // never answers
      } else if (req.url === "/reset") {
        req.socket.destroy();
      } else {
        res.writeHead(204);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe("leanFetch", () => {
  it("sends method, headers and body, and hands back a standard Response", async () => {
    const base = await start();
    const { fetch, close } = leanFetch();
    const headers = new Headers({ authorization: "Bearer k", "content-type": "application/json" });
    const res = await fetch(`${base}/json`, { method: "POST", headers, body: '{"a":"é"}' });
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get("x-request-id")).toBe("r1");
    expect(await res.json()).toEqual({ method: "POST", body: '{"a":"é"}', auth: "Bearer k", length: "10" });
    const empty = await fetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    close();
  });

  it("decodes gzip bodies as fetch does", async () => {
    const base = await start();
    const { fetch, close } = leanFetch();
    expect(await (await fetch(`${base}/gzip`)).json()).toEqual({ ok: "zipped é" });
    close();
  });

  it("rejects with an AbortError when aborted before the headers or half-way through the body", async () => {
    const base = await start();
    const { fetch, close } = leanFetch();
    for (const path of ["/hang", "/stall"]) {
      const ctrl = new AbortController();
      const p = fetch(`${base}${path}`, { signal: ctrl.signal });
      setTimeout(() => ctrl.abort(), 50);
      await expect(p).rejects.toMatchObject({ name: "AbortError" });
    }
    const pre = new AbortController();
    pre.abort();
    await expect(fetch(`${base}/json`, { signal: pre.signal })).rejects.toMatchObject({ name: "AbortError" });
    close();
  });

  it("rejects with the socket's error code on a reset or a refused connection", async () => {
    const base = await start();
    const { fetch, close } = leanFetch();
    await expect(fetch(`${base}/reset`)).rejects.toMatchObject({ code: "ECONNRESET" });
    await expect(fetch("http://127.0.0.1:1/x")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    close();
  });
});
