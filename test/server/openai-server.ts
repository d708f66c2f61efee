import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createBatchApi, type BatchApi, type BatchPlan, type LineAnswer } from "./batch-api.js";
import { seededPYes, tokenLogprobs } from "./logprobs.js";

export type { BatchApi, BatchPlan } from "./batch-api.js";

/**
 * A scriptable OpenAI-compatible chat-completions server on 127.0.0.1, for
 * tests and benchmarks. It implements `POST /v1/chat/completions` (with or
 * without structured-output support), counts requests, and lets each test
 * script what every request gets: a verdict, a delay, a 429 with
 * Retry-After, a 500, malformed JSON, a missing field, a hang, a body that
 * stalls half-way, a reset. It also offers `/v1/files` and `/v1/batches`
 * (batch-api.ts): batch request lines are answered by the same script but
 * not counted in `count`, which stays the number of online requests.
 *
 * @example
 * const server = await startOpenAIServer({ script: () => ({ verdict: "yes" }) });
 * // ... new OpenAI({ baseURL: server.baseURL, apiKey: "test" }) ...
 * expect(server.count).toBe(1);
 * await server.close();
 */

/** What one request gets. `delayMs` applies before any other behaviour. */
export type Behaviour = { delayMs?: number } & (
  /** `pYes`: the P(yes) its token log-probabilities carry when asked (default: seeded, see `logprobSeed`). */
  | { verdict: "yes" | "no"; reason?: string; pYes?: number }
  /** The message content verbatim (for malformed JSON, prose, missing fields); log-probabilities as for a verdict. */
  | { content: string; finishReason?: string; pYes?: number }
  /** A whole custom 200 body, sent as given (a string is sent raw with a JSON content type). */
  | { body: unknown }
  /** An HTTP error with an OpenAI-style error body unless `body` is given. */
  | { status: number; headers?: Record<string, string>; message?: string; body?: unknown }
  /** Never answer (until the server closes). */
  | { hang: true }
  /** Send the status line, headers and this start of a body, then stall (until the server closes). */
  | { stallBody: string }
  /** Destroy the connection without answering. */
  | { reset: true }
);

/** What a script sees of one request. */
export interface RequestInfo {
  /** 0-based index over all requests this server received. */
  index: number;
  body: Record<string, unknown>;
  system: string;
  user: string;
  /** Whether the request asked for structured outputs. */
  jsonSchema: boolean;
  /** Whether it asked for token log-probabilities, and how many alternatives per token. */
  logprobs: boolean;
  topLogprobs: number;
}

export interface ServerOptions {
  /** Chooses each request's behaviour; default: always `{ verdict: "yes" }`. */
  script?: (req: RequestInfo) => Behaviour;
  /** Added to every request before its behaviour (simulated model latency). */
  latencyMs?: number;
  /** false: a request with `response_format: json_schema` gets a 400, like servers without structured outputs. */
  jsonSchema?: boolean;
  /** The model name the server reports (default `served-<requested>`). */
  servedModel?: string;
  /** How each batch goes (default: completed after one in-progress poll). */
  batchPlan?: (batch: { id: string; metadata: Record<string, string> | null; requests: number }) => BatchPlan;
  /**
   * Token log-probabilities, when a request asks (`logprobs: true`):
   * "supported" (default) returns them; "reject" answers a 400 naming the
   * parameter; "ignore" replies without them (`logprobs: null`).
   */
  logprobs?: "supported" | "reject" | "ignore";
  /** Seed of the P(yes) of verdicts whose script gives none (default 1). */
  logprobSeed?: number;
  /** Keep every request body in `requests` (off for benchmarks). */
  keepBodies?: boolean;
  port?: number;
}

export interface TestServer {
  /** Base URL including `/v1`, as the SDK expects. */
  baseURL: string;
  /** Requests received on the completions route. */
  readonly count: number;
  /** Most requests that were open at the same time. */
  readonly maxInFlight: number;
  /** Request bodies (when `keepBodies`) and their behaviour kind, in arrival order. */
  readonly requests: { info: RequestInfo; kind: string; authorization?: string; at: number; /** The body's bytes as received. */ raw: string }[];
  /** The Files and Batches endpoints: uploaded files, created batches, counters, the batch plan. */
  readonly batch: BatchApi;
  setScript(script: (req: RequestInfo) => Behaviour): void;
  /** Changes the model name the server reports from the next request on (an alias moved to a new snapshot). */
  setServedModel(model: string | undefined): void;
  resetCount(): void;
  close(): Promise<void>;
}

function messageText(body: Record<string, unknown>, role: string): string {
  const msgs = Array.isArray(body.messages) ? (body.messages as { role?: string; content?: unknown }[]) : [];
  return msgs.filter((m) => m.role === role).map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
}

/** Token log-probabilities to attach to a reply: its P(yes) and the alternatives per token asked for. */
interface Logprobs {
  pYes: number;
  top: number;
}

function completion(model: string, content: string, finishReason: string, promptChars: number, lp?: Logprobs): Record<string, unknown> {
  const prompt = Math.ceil(promptChars / 4);
  const completionTokens = Math.ceil(content.length / 4);
  const logprobs = lp ? { content: tokenLogprobs(content, lp.pYes, lp.top), refusal: null } : null;
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: finishReason, logprobs }],
    usage: { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens },
  };
}

/** What a server without structured outputs answers a `json_schema` request. */
const NO_JSON_SCHEMA: Behaviour = {
  status: 400,
  body: { error: { message: "response_format type json_schema is not supported by this server", type: "invalid_request_error", param: "response_format", code: null } },
};

/** What a server without log-probabilities that says so answers a request asking for them. */
const NO_LOGPROBS: Behaviour = {
  status: 400,
  body: { error: { message: "logprobs is not supported by this model", type: "invalid_request_error", param: "logprobs", code: null } },
};

/** What a script sees of a request body (`index` -1 for a batch line). */
function requestInfo(body: Record<string, unknown>, index: number): RequestInfo {
  const rf = body.response_format as { type?: string } | undefined;
  const topLogprobs = typeof body.top_logprobs === "number" ? body.top_logprobs : 0;
  return { index, body, system: messageText(body, "system"), user: messageText(body, "user"), jsonSchema: rf?.type === "json_schema", logprobs: body.logprobs === true, topLogprobs };
}

function kindOf(b: Behaviour): string {
  if ("verdict" in b) return `verdict:${b.verdict}`;
  if ("content" in b) return "content";
  if ("body" in b) return "body";
  if ("status" in b) return `status:${b.status}`;
  if ("hang" in b) return "hang";
  if ("stallBody" in b) return "stall";
  return "reset";
}

/** Starts the server on 127.0.0.1 (an ephemeral port unless `port` is given). */
export async function startOpenAIServer(options: ServerOptions = {}): Promise<TestServer> {
  const opts = { ...options }; // setServedModel changes this copy, never the caller's object
  let script = opts.script ?? (() => ({ verdict: "yes" as const }));
  let count = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const requests: TestServer["requests"] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();

  /** The behaviour of a request: a missing feature's 400 first, then the script. */
  const behaviour = (info: RequestInfo): Behaviour => {
    if (info.jsonSchema && opts.jsonSchema === false) return NO_JSON_SCHEMA;
    if (info.logprobs && opts.logprobs === "reject") return NO_LOGPROBS;
    return script(info);
  };
  /** The log-probabilities a reply carries: when asked and supported; P(yes) scripted or seeded. */
  const logprobsOf = (info: RequestInfo, b: { pYes?: number; verdict?: "yes" | "no" }): Logprobs | undefined => {
    if (!info.logprobs || opts.logprobs === "ignore" || opts.logprobs === "reject") return undefined;
    return { pYes: b.pYes ?? seededPYes(opts.logprobSeed ?? 1, info.user, b.verdict ?? "yes"), top: info.topLogprobs };
  };

  const send = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) => {
    const text = typeof payload === "string" ? payload : JSON.stringify(payload);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
    res.end(text);
  };

  const act = (req: IncomingMessage, res: ServerResponse, info: RequestInfo, b: Behaviour, requested: unknown) => {
    if ("hang" in b) {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if ("reset" in b) {
      req.socket.destroy();
      return;
    }
    if ("stallBody" in b) {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(b.stallBody) + 1000 });
      res.write(b.stallBody);
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if ("status" in b) {
      const body = b.body ?? { error: { message: b.message ?? `scripted ${b.status}`, type: b.status === 429 ? "rate_limit_error" : "server_error", param: null, code: null } };
      send(res, b.status, body, b.headers);
      return;
    }
    const model = opts.servedModel ?? `served-${String(requested ?? "model")}`;
    if ("body" in b) {
      send(res, 200, b.body);
      return;
    }
    const promptChars = info.system.length + info.user.length;
    if ("content" in b) {
      send(res, 200, completion(model, b.content, b.finishReason ?? "stop", promptChars, logprobsOf(info, b)));
      return;
    }
    const reason = b.reason ?? `Scripted verdict ${b.verdict}.`;
    const json = JSON.stringify({ reason, verdict: b.verdict });
    const content = info.jsonSchema ? json : `Let me check the material.\n${json}`;
    send(res, 200, completion(model, content, "stop", promptChars, logprobsOf(info, b)));
  };

  /** One batch request line, answered by the script like an online request (but not counted as one). */
  const answerLine = (body: Record<string, unknown>): LineAnswer => {
    const info = requestInfo(body, -1);
    const b = behaviour(info);
    if ("status" in b) return { status: b.status, body: b.body ?? { error: { message: b.message ?? `scripted ${b.status}`, type: "server_error", param: null, code: null } } };
    if ("hang" in b || "stallBody" in b || "reset" in b) return { error: { code: "server_error", message: "The request failed on the server." } };
    const model = opts.servedModel ?? `served-${String(body.model ?? "model")}`;
    if ("body" in b) return { status: 200, body: b.body };
    const promptChars = info.system.length + info.user.length;
    if ("content" in b) return { status: 200, body: completion(model, b.content, b.finishReason ?? "stop", promptChars, logprobsOf(info, b)) };
    return { status: 200, body: completion(model, JSON.stringify({ reason: b.reason ?? `Scripted verdict ${b.verdict}.`, verdict: b.verdict }), "stop", promptChars, logprobsOf(info, b)) };
  };
  const batchApi = createBatchApi({ answer: answerLine, plan: opts.batchPlan });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      if (/^\/v1\/(files|batches)(\/|$)/.test(path ?? "")) {
        batchApi.handle(req, res, Buffer.concat(chunks)).catch((e: unknown) => {
          if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: `test server: ${(e as Error).message}`, type: "server_error" } }));
        });
        return;
      }
      if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/chat/completions")) {
        send(res, 404, { error: { message: `no route ${req.method} ${path}`, type: "invalid_request_error" } });
        return;
      }
      let body: Record<string, unknown>;
      const rawBody = Buffer.concat(chunks).toString("utf8");
      try {
        body = JSON.parse(rawBody) as Record<string, unknown>;
      } catch {
        send(res, 400, { error: { message: "request body is not JSON", type: "invalid_request_error" } });
        return;
      }
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on("close", () => inFlight--);
      const info = { ...requestInfo(body, count++), ...(opts.keepBodies === false ? { body: {} } : {}) };
      const b = behaviour(info);
      if (opts.keepBodies !== false) requests.push({ info, kind: kindOf(b), authorization: req.headers.authorization, at: Date.now(), raw: rawBody });
      const delay = (opts.latencyMs ?? 0) + (b.delayMs ?? 0);
      if (delay > 0) {
        const t = setTimeout(() => {
          timers.delete(t);
          act(req, res, info, b, body.model);
        }, delay);
        timers.add(t);
      } else act(req, res, info, b, body.model);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get count() {
      return count;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    requests,
    batch: batchApi,
    setScript(s) {
      script = s;
    },
    setServedModel(m) {
      opts.servedModel = m;
    },
    resetCount() {
      count = 0;
      maxInFlight = inFlight;
      requests.length = 0;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const res of hanging) res.destroy();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
