import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { Sha256 } from "../golden/schema/common.js";
import { BOUNDS, requireWithin } from "../golden/bounds.js";
import { HttpError, hostAllowed, originAllowed, parseBody, readBody, sameSecret, sendJson, sendText } from "./http.js";
import { CLIENT_JS } from "./page/client.js";
import { pageHtml } from "./page/html.js";
import { PAGE_CSS } from "./page/style.js";
import { provenanceNote, ReviewConflictError, ReviewRequestError, type ReviewSession } from "./session.js";

/** Longest note kept with a label. */
const MAX_NOTE = 2000;

const Index = z.number().int().min(0);
/** `seen`: the time of the label the page showed for the item, or null for none (see ReviewSession.answer). */
const LabelBody = z.strictObject({ index: Index, inputHash: Sha256, label: z.enum(["yes", "no"]), note: z.string().max(MAX_NOTE).optional(), seen: z.string().max(64).nullable().optional() });
const SkipBody = z.strictObject({ index: Index, inputHash: Sha256 });
const FinishBody = z.strictObject({});

/** A running review server. */
export interface ReviewServer {
  url: string;
  port: number;
  /** The per-session secret every API request must carry (`x-ragjudge-token`). */
  token: string;
  /** Resolves once the server stopped (Finish on the page, or `close()`). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Where to listen and which token to require. */
export interface ServeOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Fixed token (tests); default 32 random bytes. */
  token?: string;
  /** The command to run once labelling is done (shown on the page's last screens; the terminal prints it too). */
  next?: string;
  /** The command that resumes this review, shown on the last screens instead of `next` while items are still to go. */
  resume?: string;
}

/** The queue position summary the page needs after each step. */
function stateOf(session: ReviewSession) {
  let firstSkipped: number | undefined;
  for (let i = 0; i < session.total && firstSkipped === undefined; i++) if (session.state(i) === "skipped") firstSkipped = i;
  return {
    annotator: session.annotator,
    provenance: session.provenance,
    total: session.total,
    counts: session.counts(),
    resumeAt: session.startIndex(),
    ...(firstSkipped !== undefined ? { firstSkipped } : {}),
    hasJudgments: session.hasJudgments,
  };
}

function queryIndex(url: URL): number {
  const raw = url.searchParams.get("i");
  if (raw === null || !/^\d{1,9}$/.test(raw)) throw new HttpError(400, "i: expected a non-negative item index");
  return Number(raw);
}

/**
 * Serves the labelling page for one review session on 127.0.0.1 only.
 *
 * Security, in order of checks: the Host header must name this server (no DNS
 * rebinding); every `/api/` request must carry the session token; writes must
 * be JSON, same-origin, at most 16 KiB and valid against a strict schema; the
 * session writes only the annotator's files inside the labels folder.
 * A label request returns only after the label is flushed to disk; one that
 * names the label it saw (`seen`) is refused with 409 and the current label
 * when that changed meanwhile (two tabs, or another process appending).
 * A `port` outside 0 to 65,535 (the bounds of `review --port`) is refused
 * with a RangeError in the words of the other bounded numbers (golden/bounds.ts).
 *
 * @example
 * const server = await startReviewServer(session);
 * console.log(server.url); await server.closed;
 */
export async function startReviewServer(session: ReviewSession, opts: ServeOptions = {}): Promise<ReviewServer> {
  requireWithin("port", opts.port, BOUNDS.port);
  const token = opts.token ?? randomBytes(32).toString("base64url");
  let port = 0;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req, port)) throw new HttpError(421, "unexpected Host header");
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    const method = req.method ?? "GET";
    if (!url.pathname.startsWith("/api/")) {
      if (method !== "GET" && method !== "HEAD") throw new HttpError(405, "method not allowed");
      if (url.pathname === "/") return sendText(res, 200, "text/html; charset=utf-8", pageHtml(token, session.annotator, provenanceNote(session.provenance), opts.next, opts.resume));
      if (url.pathname === "/app.js") return sendText(res, 200, "text/javascript; charset=utf-8", CLIENT_JS);
      if (url.pathname === "/app.css") return sendText(res, 200, "text/css; charset=utf-8", PAGE_CSS);
      throw new HttpError(404, "not found");
    }
    const given = req.headers["x-ragjudge-token"];
    if (!sameSecret(typeof given === "string" ? given : undefined, token)) throw new HttpError(403, "missing or wrong session token");
    if (method === "GET") {
      // Labels another process appended since the last request are picked up here.
      session.refresh();
      if (url.pathname === "/api/state") return sendJson(res, 200, stateOf(session));
      if (url.pathname === "/api/item") return sendJson(res, 200, session.view(queryIndex(url)));
      if (url.pathname === "/api/reveal") return sendJson(res, 200, session.reveal(queryIndex(url)));
      throw new HttpError(404, "not found");
    }
    if (method !== "POST") throw new HttpError(405, "method not allowed");
    if (!originAllowed(req, port)) throw new HttpError(403, "cross-origin write refused");
    if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) throw new HttpError(415, "expected content-type application/json");
    const text = await readBody(req);
    if (url.pathname === "/api/label") {
      const b = parseBody(text, LabelBody);
      const previous = session.view(b.index).label?.label;
      const saved = session.answer(b.index, b.inputHash, b.label, b.note, b.seen);
      const note = session.gateNote(b.index, previous, b.label);
      return sendJson(res, 200, { saved, next: session.nextAfter(b.index), state: stateOf(session), ...(note ? { note } : {}) });
    }
    if (url.pathname === "/api/skip") {
      const b = parseBody(text, SkipBody);
      session.skip(b.index, b.inputHash);
      return sendJson(res, 200, { next: session.nextAfter(b.index), state: stateOf(session) });
    }
    if (url.pathname === "/api/finish") {
      parseBody(text, FinishBody);
      sendJson(res, 200, { state: stateOf(session) });
      setImmediate(() => void stop());
      return;
    }
    throw new HttpError(404, "not found");
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const status = e instanceof HttpError || e instanceof ReviewRequestError ? e.status : 500;
      const message = status === 500 ? `internal error: ${(e as Error).message}` : (e as Error).message;
      if (res.headersSent) return void res.destroy();
      // Stop reading an oversized or refused upload; the client gets the status.
      if (status === 413) res.setHeader("connection", "close");
      sendJson(res, status, { error: message, ...(e instanceof ReviewConflictError ? { conflict: e.conflict } : {}) });
      if (!req.complete) req.resume();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  let stopping: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopping ??= new Promise<void>((resolve) => {
      server.close(() => {
        resolveClosed();
        resolve();
      });
      server.closeAllConnections();
    });
    return stopping;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/`, port, token, closed, close: stop };
}
