import type { IncomingMessage, ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { formatPath } from "../golden/errors.js";

/** Largest request body the review server reads; a label with a long note is far below it. */
const MAX_BODY_BYTES = 16 * 1024;

/** An HTTP error answered as `{ "error": message }` with this status. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = "HttpError";
  }
}

/**
 * Content-Security-Policy of the page: scripts and styles only from the
 * server itself (no inline script, so injected markup could not run even if
 * it reached the DOM), no images, frames, forms or plugins, and requests only
 * back to the same origin.
 */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers every response carries. */
function baseHeaders(contentType: string): Record<string, string> {
  return {
    "content-type": contentType,
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-store",
  };
}

/** Sends a JSON value with the standard headers. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { ...baseHeaders("application/json; charset=utf-8"), "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** Sends text (the page, its script and style) with the standard headers. */
export function sendText(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { ...baseHeaders(contentType), "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Reads a request body of at most `limit` bytes. A declared or actual size
 * over the limit is a 413 and reading stops at once.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return Promise.reject(new HttpError(413, `request body over ${limit} bytes`));
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new HttpError(413, `request body over ${limit} bytes`));
        return;
      }
      parts.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(parts).toString("utf8"));
    });
    req.on("error", (e) => {
      if (!failed) reject(e);
    });
  });
}

/** Parses a JSON body against a zod schema; anything else is a 400 naming the field. */
export function parseBody<S extends z.ZodType>(text: string, schema: S): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(400, "request body is not valid JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = formatPath(issue.path);
    throw new HttpError(400, `${field ? field + ": " : ""}${issue.message}`);
  }
  return parsed.data;
}

/** Compares two secrets in constant time. */
export function sameSecret(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The request came to this server under a name the browser considers this
 * origin: `127.0.0.1:<port>` or `localhost:<port>`. Checking Host stops DNS
 * rebinding (a hostile site whose name points at 127.0.0.1 reading the page).
 */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host;
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/**
 * A write comes from the page itself: no foreign `Origin`, and no
 * `Sec-Fetch-Site` other than same-origin. Non-browser clients send neither
 * and still need the token.
 */
export function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) return false;
  const site = req.headers["sec-fetch-site"];
  return site === undefined || site === "same-origin";
}
