import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * The Files and Batches endpoints of the scriptable test server
 * (`/v1/files`, `/v1/batches`), enough for the real `openai` SDK to run a
 * whole batch cycle on 127.0.0.1: multipart upload, list (with purpose
 * filter and cursor pagination), retrieve, content download; batch create
 * (with metadata), retrieve, list. Each request line of a batch is answered
 * by the same script as the online route (without counting as an online
 * request). How a batch ends is scripted per batch by a {@link BatchPlan};
 * retrieves move it along.
 */

/** How a batch goes. Each retrieve is one step. */
export interface BatchPlan {
  /** The end state (default completed). A batch whose input fails validation always fails. */
  outcome?: "completed" | "failed" | "expired" | "cancelled";
  /** Retrieves that see it `in_progress` before it ends (default 1; 0: the first retrieve sees the end). */
  polls?: number;
  /** expired/cancelled: requests that ran before (default half, rounded down); the rest go to the error file. */
  processed?: number;
  /** failed: the batch's errors (default one `scripted_failure`). */
  errors?: { code: string; message: string; line?: number }[];
}

/** What one request line of a batch got: a response (200 goes to the output file, others to the error file) or an error without response. */
export type LineAnswer = { status: number; body: unknown } | { error: { code: string; message: string } };

export interface BatchApiOptions {
  /** Answers one request body (the server's chat script). */
  answer: (body: Record<string, unknown>) => LineAnswer;
  plan?: (batch: { id: string; metadata: Record<string, string> | null; requests: number }) => BatchPlan;
}

export interface StoredFile {
  id: string;
  object: "file";
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: "processed";
  content: Buffer;
}

interface InputLine {
  custom_id: string;
  body: Record<string, unknown>;
}

export interface StoredBatch {
  object: Record<string, unknown> & { id: string; status: string };
  plan: BatchPlan;
  retrieves: number;
  lines: InputLine[];
  invalid: { code: string; message: string; line?: number }[];
}

/** Control and inspection of the batch endpoints from a test. */
export interface BatchApi {
  readonly files: StoredFile[];
  readonly batches: StoredBatch[];
  /** Successful uploads. */
  readonly uploads: number;
  /** Request lines answered inside batches (not counted as online requests). */
  readonly lines: number;
  /** Authorization headers seen on these endpoints. */
  readonly authorizations: (string | undefined)[];
  setPlan(plan: BatchApiOptions["plan"]): void;
  /** Handles a request on /v1/files or /v1/batches. */
  handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void>;
}

const nowS = () => Math.floor(Date.now() / 1000);

function send(res: ServerResponse, status: number, payload: unknown, type = "application/json"): void {
  const data = Buffer.isBuffer(payload) ? payload : Buffer.from(JSON.stringify(payload));
  res.writeHead(status, { "content-type": type, "content-length": data.length });
  res.end(data);
}

function fail(res: ServerResponse, status: number, message: string, param: string | null = null): void {
  send(res, status, { error: { message, type: "invalid_request_error", param, code: null } });
}

/** A cursor page over `all` (newest first unless `order=asc`), as the OpenAI list endpoints return it. */
function page<T extends { id: string }>(all: T[], q: URLSearchParams, defaultLimit: number, show: (t: T) => unknown): unknown {
  const ordered = q.get("order") === "asc" ? [...all] : [...all].reverse();
  const after = q.get("after");
  const start = after ? ordered.findIndex((t) => t.id === after) + 1 : 0;
  const limit = Math.max(1, Number(q.get("limit") ?? defaultLimit));
  const data = ordered.slice(start, start + limit);
  return { object: "list", data: data.map(show), first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: start + limit < ordered.length };
}

function fileView(f: StoredFile): Omit<StoredFile, "content"> {
  const { content: _c, ...rest } = f;
  return rest;
}

export function createBatchApi(opts: BatchApiOptions): BatchApi {
  let plan = opts.plan;
  const files: StoredFile[] = [];
  const batches: StoredBatch[] = [];
  const authorizations: (string | undefined)[] = [];
  let uploads = 0;
  let lines = 0;
  let seq = 0;

  const addFile = (filename: string, purpose: string, content: Buffer): StoredFile => {
    const f: StoredFile = { id: `file-${++seq}`, object: "file", bytes: content.length, created_at: nowS(), filename, purpose, status: "processed", content };
    files.push(f);
    return f;
  };

  /** Checks the input file the way the Batch API does before running it. */
  const validate = (content: Buffer, endpoint: string): { lines: InputLine[]; invalid: StoredBatch["invalid"] } => {
    const out: InputLine[] = [];
    const invalid: StoredBatch["invalid"] = [];
    const seen = new Set<string>();
    let model: unknown;
    content
      .toString("utf8")
      .split("\n")
      .forEach((text, i) => {
        if (text.trim() === "") return;
        const line = i + 1;
        let v: { custom_id?: unknown; method?: unknown; url?: unknown; body?: { model?: unknown } };
        try {
          v = JSON.parse(text) as typeof v;
        } catch {
          invalid.push({ code: "invalid_json_line", message: "This line is not parseable as valid JSON.", line });
          return;
        }
        if (typeof v.custom_id !== "string") invalid.push({ code: "missing_required_parameter", message: "custom_id is missing", line });
        else if (seen.has(v.custom_id)) invalid.push({ code: "duplicate_custom_id", message: `The custom_id ${v.custom_id} is duplicated.`, line });
        else seen.add(v.custom_id);
        if (v.method !== "POST") invalid.push({ code: "invalid_method", message: "method must be POST", line });
        if (v.url !== endpoint) invalid.push({ code: "invalid_url", message: `The url provided for this request does not match the batch endpoint ${endpoint}.`, line });
        if (!v.body || typeof v.body !== "object") invalid.push({ code: "missing_required_parameter", message: "body is missing", line });
        else if (model === undefined) model = v.body.model;
        else if (v.body.model !== model) invalid.push({ code: "mismatched_model", message: "All requests in a batch must use the same model.", line });
        if (typeof v.custom_id === "string" && v.body && typeof v.body === "object") out.push({ custom_id: v.custom_id, body: v.body as Record<string, unknown> });
      });
    if (out.length === 0 && invalid.length === 0) invalid.push({ code: "empty_file", message: "The input file is empty." });
    return { lines: out, invalid };
  };

  /** Runs the plan's share of the requests and writes the output and error files. */
  const finish = (b: StoredBatch): void => {
    const o = b.object;
    const outcome = b.invalid.length ? "failed" : (b.plan.outcome ?? "completed");
    const t = nowS();
    if (outcome === "failed") {
      Object.assign(o, { status: "failed", failed_at: t, errors: { object: "list", data: (b.invalid.length ? b.invalid : (b.plan.errors ?? [{ code: "scripted_failure", message: "scripted failure" }])).map((e) => ({ param: null, line: null, ...e })) } });
      return;
    }
    const runs = outcome === "completed" ? b.lines.length : Math.min(b.lines.length, b.plan.processed ?? Math.floor(b.lines.length / 2));
    const output: string[] = [];
    const errors: string[] = [];
    let completed = 0;
    let failed = 0;
    b.lines.forEach((l, i) => {
      const id = `batch_req_${o.id}_${i}`;
      if (i >= runs) {
        const code = outcome === "expired" ? "batch_expired" : "batch_cancelled";
        const message = outcome === "expired" ? "This request could not be executed before the completion window expired." : "The batch was cancelled before this request ran.";
        errors.push(JSON.stringify({ id, custom_id: l.custom_id, response: null, error: { code, message } }));
        return;
      }
      lines++;
      const a = opts.answer(l.body);
      if ("error" in a) {
        failed++;
        errors.push(JSON.stringify({ id, custom_id: l.custom_id, response: null, error: a.error }));
      } else if (a.status === 200) {
        completed++;
        output.push(JSON.stringify({ id, custom_id: l.custom_id, response: { status_code: 200, request_id: `req_${i}`, body: a.body }, error: null }));
      } else {
        failed++;
        errors.push(JSON.stringify({ id, custom_id: l.custom_id, response: { status_code: a.status, request_id: `req_${i}`, body: a.body }, error: null }));
      }
    });
    // Results come back in no particular order: reversed, so nothing may rely on it.
    const fileOf = (rows: string[], kind: string) => (rows.length ? addFile(`${o.id}_${kind}.jsonl`, "batch_output", Buffer.from(rows.reverse().join("\n") + "\n")).id : null);
    Object.assign(o, {
      status: outcome,
      [`${outcome === "completed" ? "completed" : outcome === "expired" ? "expired" : "cancelled"}_at`]: t,
      finalizing_at: t,
      output_file_id: fileOf(output, "output"),
      error_file_id: fileOf(errors, "error"),
      request_counts: { total: b.lines.length, completed, failed },
    });
  };

  const step = (b: StoredBatch): void => {
    b.retrieves++;
    if (b.object.status !== "validating" && b.object.status !== "in_progress") return;
    const polls = b.invalid.length ? 0 : (b.plan.polls ?? 1);
    if (b.retrieves <= polls) {
      const done = Math.floor((b.lines.length * b.retrieves) / (polls + 1));
      Object.assign(b.object, { status: "in_progress", in_progress_at: b.object.in_progress_at ?? nowS(), request_counts: { total: b.lines.length, completed: done, failed: 0 } });
      return;
    }
    finish(b);
  };

  const createBatch = (res: ServerResponse, body: Buffer): void => {
    let p: { input_file_id?: unknown; endpoint?: unknown; completion_window?: unknown; metadata?: unknown };
    try {
      p = JSON.parse(body.toString("utf8")) as typeof p;
    } catch {
      return fail(res, 400, "request body is not JSON");
    }
    const file = files.find((f) => f.id === p.input_file_id);
    if (!file) return fail(res, 404, `No such File object: ${String(p.input_file_id)}`, "input_file_id");
    if (file.purpose !== "batch") return fail(res, 400, "the input file must have purpose batch", "input_file_id");
    if (p.completion_window !== "24h") return fail(res, 400, "completion_window must be 24h", "completion_window");
    if (typeof p.endpoint !== "string" || !p.endpoint.startsWith("/v1/")) return fail(res, 400, "invalid endpoint", "endpoint");
    const metadata = (p.metadata ?? null) as Record<string, string> | null;
    if (metadata && (Object.keys(metadata).length > 16 || Object.entries(metadata).some(([k, v]) => k.length > 64 || typeof v !== "string" || v.length > 512))) {
      return fail(res, 400, "metadata: at most 16 pairs, keys up to 64 characters, string values up to 512", "metadata");
    }
    const id = `batch_${++seq}`;
    const { lines: input, invalid } = validate(file.content, p.endpoint);
    const t = nowS();
    const object = {
      id,
      object: "batch",
      endpoint: p.endpoint,
      errors: null,
      input_file_id: file.id,
      completion_window: "24h",
      status: "validating",
      output_file_id: null,
      error_file_id: null,
      created_at: t,
      in_progress_at: null,
      expires_at: t + 86_400,
      request_counts: { total: 0, completed: 0, failed: 0 },
      metadata,
    } as StoredBatch["object"];
    const b: StoredBatch = { object, plan: plan?.({ id, metadata, requests: input.length }) ?? {}, retrieves: 0, lines: input, invalid };
    batches.push(b);
    send(res, 200, object);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> => {
    authorizations.push(req.headers.authorization);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const parts = url.pathname.split("/").filter(Boolean); // ["v1", "files" | "batches", id?, "content"?]
    const [, kind, id, sub] = parts;
    const m = req.method;
    if (kind === "files") {
      if (m === "POST" && !id) {
        let form: FormData;
        try {
          form = await new Request("http://127.0.0.1/upload", { method: "POST", headers: { "content-type": req.headers["content-type"] ?? "" }, body }).formData();
        } catch (e) {
          return fail(res, 400, `not a multipart upload (${(e as Error).message})`);
        }
        const file = form.get("file");
        const purpose = form.get("purpose");
        if (!(file instanceof Blob)) return fail(res, 400, "file is missing", "file");
        if (typeof purpose !== "string" || purpose === "") return fail(res, 400, "purpose is missing", "purpose");
        const name = (file as File).name ?? "upload";
        uploads++;
        return send(res, 200, fileView(addFile(name, purpose, Buffer.from(await file.arrayBuffer()))));
      }
      if (m === "GET" && !id) {
        const purpose = url.searchParams.get("purpose");
        return send(res, 200, page(purpose ? files.filter((f) => f.purpose === purpose) : files, url.searchParams, 10_000, fileView));
      }
      const f = files.find((x) => x.id === id);
      if (m === "GET" && f && !sub) return send(res, 200, fileView(f));
      if (m === "GET" && f && sub === "content") return send(res, 200, f.content, "application/octet-stream");
      if (!f && m === "GET") return fail(res, 404, `No such File object: ${id}`, "id");
    }
    if (kind === "batches") {
      if (m === "POST" && !id) return createBatch(res, body);
      if (m === "GET" && !id) return send(res, 200, page(batches.map((b) => b.object), url.searchParams, 20, (o) => o));
      const b = batches.find((x) => x.object.id === id);
      if (m === "GET" && b && !sub) {
        step(b);
        return send(res, 200, b.object);
      }
      if (!b && m === "GET") return fail(res, 404, `No batch found with id '${id}'.`, "id");
    }
    fail(res, 404, `no route ${m} ${url.pathname}`);
  };

  return {
    files,
    batches,
    get uploads() {
      return uploads;
    },
    get lines() {
      return lines;
    },
    authorizations,
    setPlan(p) {
      plan = p;
    },
    handle,
  };
}
