import http from "node:http";
import https from "node:https";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/**
 * A lean `fetch` for the openai SDK (its documented `fetch` option): one
 * `node:http` / `node:https` request over a keep-alive Agent, the whole reply
 * read into one buffer, then handed back as a standard `Response`. The SDK
 * still builds every request, reads every reply and raises every error; only
 * the carrier changes. Node's built-in `fetch` (undici) builds a Request, web
 * streams and a per-request abort chain for each call, which at judge rates
 * (hundreds of calls a second) costs more CPU than everything else the
 * harness does: measured by `npm run bench:judge`.
 *
 * Behaviour the client relies on is kept: the caller's AbortSignal aborts
 * the request at any point (before the reply headers or half-way through the
 * body) with an `AbortError`; a socket reset or refused connection rejects
 * with the socket's error (its `code`, e.g. ECONNRESET); gzip, deflate and
 * br bodies are decoded as fetch would.
 *
 * @example
 * const lean = leanFetch();
 * const sdk = new OpenAI({ apiKey, baseURL, fetch: lean.fetch });
 * // ... lean.close() when done (free sockets are unref'd, so this is optional)
 */
export interface LeanFetch {
  fetch: typeof globalThis.fetch;
  /** Closes the Agents' sockets. */
  close(): void;
}

/** Statuses whose Response must have a null body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason as unknown;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  const e = new Error("This operation was aborted");
  e.name = "AbortError";
  return e;
}

/** The request headers as a plain object (the SDK passes a Headers instance). */
function plainHeaders(h: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (h instanceof Headers) h.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(h)) for (const pair of h as [string, string][]) out[pair[0].toLowerCase()] = pair[1];
  else for (const k of Object.keys(h)) out[k.toLowerCase()] = (h as Record<string, string>)[k]!;
  return out;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return gunzipSync(body);
    case "deflate":
      return inflateSync(body);
    case "br":
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

/** Body bytes of a request: the SDK sends JSON strings; bytes and Blobs-as-bytes pass through. */
function requestBody(body: RequestInit["body"]): string | Uint8Array | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError("leanFetch: only string and byte bodies are supported");
}

/** Builds a lean fetch with its own keep-alive Agents (one for http, one for https). */
export function leanFetch(): LeanFetch {
  const agents = {
    "http:": new http.Agent({ keepAlive: true }),
    "https:": new https.Agent({ keepAlive: true }),
  };
  const fetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      if (input instanceof Request) {
        reject(new TypeError("leanFetch: pass a URL, not a Request"));
        return;
      }
      const url = typeof input === "string" ? new URL(input) : input;
      const signal = init.signal ?? undefined;
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const secure = url.protocol === "https:";
      if (!secure && url.protocol !== "http:") {
        reject(new TypeError(`leanFetch: unsupported protocol ${url.protocol}`));
        return;
      }
      let body: string | Uint8Array | undefined;
      try {
        body = requestBody(init.body);
      } catch (e) {
        reject(e);
        return;
      }
      const headers = plainHeaders(init.headers);
      if (body !== undefined) headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
      const options: http.RequestOptions = {
        agent: agents[secure ? "https:" : "http:"],
        method: init.method ?? "GET",
        hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port || undefined,
        path: url.pathname + url.search,
        headers,
        signal,
      };
      const req = (secure ? https : http).request(options, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("aborted", () => reject(Object.assign(new Error("terminated"), { code: "ECONNRESET" })));
        res.on("end", () => {
          if (!res.complete) {
            reject(Object.assign(new Error("terminated"), { code: "ECONNRESET" }));
            return;
          }
          try {
            const status = res.statusCode ?? 0;
            const pairs: [string, string][] = [];
            const raw = res.rawHeaders;
            for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
            const bytes = NULL_BODY.has(status) ? null : decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), res.headers["content-encoding"]);
            resolve(new Response(bytes, { status, statusText: res.statusMessage ?? "", headers: pairs }));
          } catch (e) {
            reject(e);
          }
        });
      });
      req.on("error", (e) => reject(signal?.aborted ? abortError(signal) : e));
      req.end(body);
    });
  return {
    fetch: fetch as typeof globalThis.fetch,
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
