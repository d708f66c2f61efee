/**
 * Differential fuzz of the chunks loader: a chunks file loaded with its texts
 * read back (loadChunks with readBackFrom 0), and on two threads
 * (loadChunksOnTwoThreads), must give what the eager load gives (ids, order,
 * document, heading, meta, each text through its getter, the JSON of each
 * chunk, byDoc) or fail with the very same message; and a chunks file
 * changed after the load is an error naming its line, never another chunk's
 * text.
 *
 * The CI run is a sample; FUZZ_FULL=1 runs the full sweep (about 7 minutes
 * on 2 cores), FUZZ_SEED / FUZZ_FILES / FUZZ_TWO / FUZZ_REGION change it.
 * A file that diverges is copied to fuzz-repro/ in the OS temp folder.
 */
import { appendFileSync, openSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, writeSync, closeSync, ftruncateSync, copyFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChunkReadingBack } from "../../src/golden/chunk-text.js";
import { loadChunksOnTwoThreads } from "../../src/golden/chunks-parallel.js";
import { loadChunks, type WantedTexts } from "../../src/golden/dataset.js";
import { InputError, InputErrors } from "../../src/golden/errors.js";
import type { ChunkIndex } from "../../src/golden/relevance.js";
import { mulberry32 } from "../helpers/seeded.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("ragjudge-fuzz-readback-");
const SEED = Number(process.env.FUZZ_SEED ?? 20261205);
const FULL = process.env.FUZZ_FULL === "1";
const FILES = Number(process.env.FUZZ_FILES ?? (FULL ? 1500 : 150));
const TWO = Number(process.env.FUZZ_TWO ?? (FULL ? 160 : 16));
const BLOCK = 32 << 10; // readTextBlocks' default block (files.ts:68)

// ---------------------------------------------------------------- RNG
type R = () => number;
const int = (r: R, n: number) => Math.floor(r() * n);
const pick = <T>(r: R, xs: readonly T[]): T => xs[int(r, xs.length)]!;
const chance = (r: R, p: number) => r() < p;

// ---------------------------------------------------------------- byte building
/** A piece of a JSON string's content: text (encoded with random escapes) or raw bytes put verbatim (invalid UTF-8). */
type Piece = string | { raw: number[] };

const INVALID: number[][] = [
  [0xff], [0xfe], [0x80], [0xbf], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf],
  [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc3, 0xc3], [0xe2, 0x28, 0xa1],
];

const WORDS = [
  "leave", "lapses", "plain words", " ", "\"quoted\"", "back\\slash", "tab\there", "line\nbreak", "cr\rin text", "crlf\r\nin text",
  "é", "ß", "ñ", "Ω", "नीति", "中文", "€", "\u2028", "\u2029", "\u00a0", "\ufeff", "😀", "𝄞", "👩‍👩‍👧", "\ud800", "\udfff", "\udc00\ud800",
  "\u0000", "\u0001", "\u001f", "\u007f", "/", "</script>", "\\u0041", "\\n",
  "{\"id\":\"x\",\"doc\":\"y\",\"text\":\"z\"}", "\"}\n{\"id\":\"evil\",\"doc\":\"d\",\"text\":\"injected\"}\n",
];

const hex4 = (r: R, c: number) => {
  const h = c.toString(16).padStart(4, "0");
  return "\\u" + (chance(r, 0.5) ? h.toUpperCase() : h);
};

/** A JSON string literal for `pieces`, escapes chosen at random where JSON allows a choice. */
function jsonString(r: R, pieces: readonly Piece[], escapeRate = 0.1): Buffer {
  const out: Buffer[] = [Buffer.from('"')];
  for (const p of pieces) {
    if (typeof p !== "string") {
      out.push(Buffer.from(p.raw));
      continue;
    }
    let s = "";
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i);
      const next = p.charCodeAt(i + 1);
      if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        // a pair: raw, both escaped, or (legal JSON) one escaped and one... no: raw halves cannot be UTF-8; escape both or neither
        s += chance(r, 0.3) ? hex4(r, c) + hex4(r, next) : p[i]! + p[i + 1]!;
        i++;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        s += hex4(r, c); // a lone surrogate must be escaped to survive UTF-8
        continue;
      }
      const ch = p[i]!;
      if (ch === '"') s += chance(r, 0.8) ? '\\"' : hex4(r, c);
      else if (ch === "\\") s += chance(r, 0.8) ? "\\\\" : hex4(r, c);
      else if (ch === "\n") s += chance(r, 0.8) ? "\\n" : hex4(r, c);
      else if (ch === "\r") s += chance(r, 0.8) ? "\\r" : hex4(r, c);
      else if (ch === "\t") s += chance(r, 0.8) ? "\\t" : hex4(r, c);
      else if (ch === "\b") s += "\\b";
      else if (ch === "\f") s += "\\f";
      else if (ch === "/") s += chance(r, 0.3) ? "\\/" : "/";
      else if (c < 0x20) s += hex4(r, c);
      else s += chance(r, escapeRate) ? hex4(r, c) : ch;
    }
    out.push(Buffer.from(s, "utf8"));
  }
  out.push(Buffer.from('"'));
  return Buffer.concat(out);
}

const WS = [" ", "\t", "  ", ""];
const ws = (r: R, p = 0.1) => (chance(r, p) ? pick(r, WS) : "");

function randomText(r: R, maxWords = 30, invalidRate = 0): Piece[] {
  const n = int(r, maxWords + 1);
  const out: Piece[] = [];
  for (let i = 0; i < n; i++) {
    if (invalidRate && chance(r, invalidRate)) out.push({ raw: pick(r, INVALID) });
    else out.push(chance(r, 0.6) ? pick(r, ["leave", "carry", "forward", "year", " ", "policy"]) : pick(r, WORDS));
  }
  return out;
}

function randomJsonValue(r: R, depth = 0): unknown {
  const k = int(r, depth > 2 ? 5 : 7);
  switch (k) {
    case 0: return null;
    case 1: return chance(r, 0.5);
    case 2: return pick(r, [0, -0, 1.5, 1e21, -7, 12345678901234567890]);
    case 3: return pick(r, WORDS);
    case 4: return "";
    case 5: return Array.from({ length: int(r, 3) }, () => randomJsonValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = int(r, 3); i > 0; i--) o[pick(r, ["a", "b", "1", "é", "k😀", "z"])] = randomJsonValue(r, depth + 1);
      return o;
    }
  }
}

/** A JSON key, sometimes with its letters escaped ("\u0069d" is "id"). */
function jsonKey(r: R, k: string): Buffer {
  return jsonString(r, [k], chance(r, 0.05) ? 0.5 : 0);
}

function objectLine(r: R, fields: [string, Buffer][], shuffle: boolean): Buffer {
  const fs = [...fields];
  if (shuffle) for (let i = fs.length - 1; i > 0; i--) { const j = int(r, i + 1); [fs[i], fs[j]] = [fs[j]!, fs[i]!]; }
  const parts: Buffer[] = [Buffer.from(ws(r) + "{" + ws(r))];
  fs.forEach(([k, v], i) => {
    if (i) parts.push(Buffer.from(ws(r) + "," + ws(r)));
    parts.push(jsonKey(r, k), Buffer.from(ws(r) + ":" + ws(r)), v);
  });
  parts.push(Buffer.from(ws(r) + "}" + ws(r)));
  return Buffer.concat(parts);
}

const IDS = ["a", "b", "é#1", "नीति#2", "😀", "id with space", "\u00e9", "e\u0301", "x/y", "\"q\"", "\\", "\ud800", "\u2028id", "\ufeffid"];

interface Gen {
  lines: Buffer[];
  /** ids of valid chunk lines, with the 1-based line they are on (used to check the line a read-back names). */
  chunkLines: Map<string, number>;
  docs: string[];
}

interface Shape {
  badRate: number;
  dupRate: number;
  blankRate: number;
  invalidRate: number;
  longRate: number;
  hugeRate: number;
}

function chunkLine(r: R, id: string, doc: string, shape: Shape): Buffer {
  const fields: [string, Buffer][] = [
    ["id", jsonString(r, [id])],
    ["doc", jsonString(r, [doc])],
  ];
  let text = randomText(r, 30, shape.invalidRate);
  if (chance(r, shape.longRate)) text = [...text, "x".repeat(30_000 + int(r, 80_000)), ...randomText(r, 10)];
  if (chance(r, shape.longRate)) text = [...text, "é😀नी".repeat(3000 + int(r, 20_000))];
  if (chance(r, shape.hugeRate)) text = [...text, "w".repeat((1 << 20) + int(r, 200_000) - 100_000), "😀"];
  fields.push(["text", jsonString(r, text, chance(r, 0.2) ? 0.5 : 0.02)]);
  if (chance(r, 0.3)) fields.push(["heading", jsonString(r, chance(r, 0.1) ? [""] : randomText(r, 5))]);
  if (chance(r, 0.1)) {
    const meta = randomJsonValue(r, 1);
    const m = meta !== null && typeof meta === "object" && !Array.isArray(meta) ? meta : { v: meta };
    fields.push(["meta", Buffer.from(JSON.stringify(m), "utf8")]);
  }
  if (chance(r, 0.01)) fields.push(["meta", Buffer.from('{"__proto__":{"polluted":1},"x":2}')]);
  return objectLine(r, fields, chance(r, 0.15));
}

function badLine(r: R): Buffer {
  const k = int(r, 20);
  const s = (x: unknown) => Buffer.from(JSON.stringify(x));
  switch (k) {
    case 0: return Buffer.from("{not json");
    case 1: return Buffer.from("[]");
    case 2: return Buffer.from("null");
    case 3: return s({ id: "a" });
    case 4: return s({ id: "a", doc: 3, text: "t" });
    case 5: return s({ id: "a", doc: "d", text: 5 });
    case 6: return s({ id: " a", doc: "d", text: "t" });
    case 7: return s({ id: "", doc: "d", text: "t" });
    case 8: return s({ id: "a", doc: "d", text: "t", heading: null });
    case 9: return s({ id: "a", doc: "d", text: "t", meta: [1] });
    case 10: return s({ id: "a", doc: "d", text: "t", extra: 1 });
    case 11: return Buffer.concat([s({ id: "a", doc: "d", text: "t" }), Buffer.from(" x")]);
    case 12: return Buffer.from('{"id":"a","doc":"d","text":"t"');
    case 13: return Buffer.concat([s({ id: "a", doc: "d", text: "t" }), Buffer.from([0xe2])]);
    case 14: return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), s({ id: "bom-mid", doc: "d", text: "t" })]);
    case 15: return Buffer.from('{"id":"a","doc":"d","text":"\\ud800\\u12"}');
    case 16: return Buffer.from('{"id":"a","doc":"d","text":"tab\there"}'); // raw control char in a string
    case 17: return Buffer.from('{"__proto__":{},"id":"a","doc":"d","text":"t"}');
    case 18: return s({ id: "a", doc: "d", text: "t", meta: "m" });
    default: return Buffer.from('"just a string"');
  }
}

function blankLine(r: R): Buffer {
  return Buffer.from(pick(r, ["", " ", "\t", "   ", "\u00a0", "\ufeff", "\u2028", " \t "]), "utf8");
}

function generate(r: R, n: number, shape: Shape): Gen {
  const lines: Buffer[] = [];
  const chunkLines = new Map<string, number>();
  const docs: string[] = [];
  let doc = "d0";
  let ids: string[] = [];
  for (let i = 0; i < n; i++) {
    if (chance(r, shape.blankRate)) { lines.push(blankLine(r)); continue; }
    if (chance(r, shape.badRate)) { lines.push(badLine(r)); continue; }
    if (chance(r, 0.2)) {
      doc = chance(r, 0.1) ? pick(r, IDS.filter((x) => x.trim() === x && x !== "")) : `d${i}${chance(r, 0.1) ? "é" : ""}`;
      if (chance(r, 0.05) && docs.length) doc = pick(r, docs); // a document coming back later
      if (!docs.includes(doc)) docs.push(doc);
    }
    let id = chance(r, 0.05) ? `${pick(r, IDS)}#${i}` : `${doc}#${i}`;
    if (id.trim() !== id) id = `k${i}`;
    if (chance(r, shape.dupRate) && ids.length) id = pick(r, ids);
    ids.push(id);
    if (!chunkLines.has(id)) chunkLines.set(id, lines.length + 1);
    lines.push(chunkLine(r, id, doc, shape));
  }
  return { lines, chunkLines, docs };
}

type Ending = "lf" | "crlf" | "cr" | "mixed";

function assemble(r: R, lines: Buffer[], ending: Ending, bom: boolean, trailing: boolean): Buffer {
  const parts: Buffer[] = [];
  if (bom) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  lines.forEach((l, i) => {
    parts.push(l);
    if (i === lines.length - 1 && !trailing) return;
    const e = ending === "mixed" ? pick(r, ["lf", "crlf", "cr"] as const) : ending;
    parts.push(Buffer.from(e === "lf" ? "\n" : e === "crlf" ? "\r\n" : "\r"));
  });
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------- comparing
type Snap = { error: string; kind: string } | { crash: string } | { chunks: string[]; docs: string; readErrors: string[] };

function errOf(e: unknown): Snap {
  if (e instanceof InputErrors || e instanceof InputError) return { error: e.message, kind: e.constructor.name };
  return { crash: String((e as Error)?.stack ?? e) };
}

function snapIndex(index: ChunkIndex, r?: R): Snap {
  const entries = [...index.byId.entries()];
  // read texts in a random order first (window misses and hits), then compare in file order
  const readErrors: string[] = [];
  if (r) {
    const order = entries.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) { const j = int(r, i + 1); [order[i], order[j]] = [order[j]!, order[i]!]; }
    for (const i of order) {
      try { void entries[i]![1].text; } catch (e) { readErrors.push(String((e as Error).message)); }
    }
  }
  const chunks = entries.map(([key, c]) => {
    try {
      return JSON.stringify([key, c.id, c.doc, c.text, c.heading ?? "<no heading>", c.heading === undefined, c.meta === undefined ? "<no meta>" : c.meta, JSON.stringify(c)]);
    } catch (e) {
      return `read error: ${(e as Error).message}`;
    }
  });
  const docs = JSON.stringify([...index.byDoc].map(([d, l]) => [d, l.map((x) => x.chunk.id)]));
  return { chunks, docs, readErrors };
}

function load(file: string, readBackFrom: number, r?: R): Snap {
  let index: ChunkIndex;
  try {
    index = loadChunks(file, { readBackFrom });
  } catch (e) {
    return errOf(e);
  }
  return snapIndex(index, r);
}

async function loadTwo(file: string, wanted: WantedTexts, r?: R): Promise<{ snap: Snap; readBack: number; index?: ChunkIndex }> {
  let index: ChunkIndex;
  try {
    index = await loadChunksOnTwoThreads(file, wanted, 0);
  } catch (e) {
    return { snap: errOf(e), readBack: 0 };
  }
  const readBack = [...index.byId.values()].filter((c) => c instanceof ChunkReadingBack).length;
  return { snap: snapIndex(index, r), readBack, index };
}

function randomWanted(r: R, g: Gen): WantedTexts {
  const k = int(r, 10);
  if (k === 0) return { all: true };
  if (k < 5) return { all: false, docs: [], ids: [] };
  const ids = [...g.chunkLines.keys()];
  return {
    all: false,
    docs: g.docs.filter(() => chance(r, 0.3)).concat(chance(r, 0.2) ? ["no-such-doc"] : []),
    ids: ids.filter(() => chance(r, 0.2)).concat(chance(r, 0.2) ? ["no-such-id"] : []),
  };
}

interface Divergence { file: string; what: string; a: unknown; b: unknown }

function diff(a: Snap, b: Snap): string | undefined {
  if ("chunks" in a && "chunks" in b) {
    if (a.readErrors.length || b.readErrors.length) return `read errors: ${JSON.stringify([a.readErrors.slice(0, 3), b.readErrors.slice(0, 3)])}`;
    if (a.docs !== b.docs) return "byDoc differs";
    if (a.chunks.length !== b.chunks.length) return `chunk count ${a.chunks.length} vs ${b.chunks.length}`;
    for (let i = 0; i < a.chunks.length; i++) if (a.chunks[i] !== b.chunks[i]) return `chunk ${i}: ${a.chunks[i]!.slice(0, 300)} vs ${b.chunks[i]!.slice(0, 300)}`;
    return undefined;
  }
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  return sa === sb ? undefined : `${sa.slice(0, 600)} vs ${sb.slice(0, 600)}`;
}

/** The 1-based line of each chunk id's first line, counted from the file's bytes as the parser counts them (\n, \r\n and a lone \r end a line). */
function linesOfIds(file: string): Map<string, number> {
  const lineOf = new Map<string, number>();
  let text = readFileSync(file).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text.replace(/\r\n?/g, "\n").split("\n").forEach((l, i) => {
    try {
      const j = JSON.parse(l) as { id?: unknown };
      if (typeof j?.id === "string" && !lineOf.has(j.id)) lineOf.set(j.id, i + 1);
    } catch { /* blank or bad */ }
  });
  return lineOf;
}

/** Checks that every read-back chunk of a fresh load names its own line once the file's mtime changes (then restores the mtime). */
function checkLinesAfterTouch(file: string, index: ChunkIndex, lineOf: Map<string, number> = linesOfIds(file)): string[] {
  const bad: string[] = [];
  const st = statSync(file);
  utimesSync(file, st.atime, new Date(st.mtimeMs + 5000));
  try {
    for (const [id, c] of index.byId) {
      if (!(c instanceof ChunkReadingBack)) continue;
      const line = lineOf.get(id);
      try {
        void c.text;
        bad.push(`chunk ${JSON.stringify(id)}: read after touch gave text`);
      } catch (e) {
        const expected = `${file}:${line}: text: the chunks file changed after it was loaded (chunk ${JSON.stringify(id)}); run again`;
        if ((e as Error).message !== expected) bad.push(`chunk ${JSON.stringify(id)}: got ${JSON.stringify((e as Error).message)} expected ${JSON.stringify(expected)}`);
      }
    }
  } finally {
    utimesSync(file, st.atime, st.mtime);
  }
  return bad;
}

function randomShape(r: R): Shape {
  const clean = chance(r, 0.65);
  return {
    badRate: clean ? 0 : pick(r, [0.01, 0.1, 0.5, 0.9]),
    dupRate: chance(r, 0.1) ? 0.05 : 0,
    blankRate: pick(r, [0, 0.05, 0.3, 0.9]),
    invalidRate: chance(r, 0.15) ? 0.05 : 0,
    longRate: chance(r, 0.1) ? 0.1 : 0,
    hugeRate: chance(r, 0.01) ? 0.3 : 0,
  };
}

function randomFile(r: R, i: number): { file: string; g: Gen; bytes: Buffer } {
  const shape = randomShape(r);
  const n = pick(r, [0, 1, 2, 3, 5, 10, 30, 80, 200]);
  const g = generate(r, n, shape);
  const ending = pick(r, ["lf", "lf", "crlf", "cr", "mixed"] as const);
  const bytes = assemble(r, g.lines, ending, chance(r, 0.2), chance(r, 0.7));
  const file = join(dir, `f${i}.jsonl`);
  writeFileSync(file, bytes);
  return { file, g, bytes };
}

const REPRO = join(tmpdir(), "fuzz-repro");
mkdirSync(REPRO, { recursive: true });
const report = (ds: Divergence[]) => {
  for (const d of ds) {
    try { copyFileSync(d.file, join(REPRO, basename(d.file))); } catch { /* gone */ }
  }
  return reportText(ds);
};
const reportText = (ds: Divergence[]) => ds.slice(0, 20).map((d) => `${d.file}: ${d.what}`).join("\n");

// ---------------------------------------------------------------- tests
describe("fuzz: read-back and two-thread loads against the eager load", () => {
  it(`random files, one thread (seed ${SEED}, ${FILES} files)`, () => {
    const r = mulberry32(SEED);
    const ds: Divergence[] = [];
    let ok = 0;
    let errs = 0;
    for (let i = 0; i < FILES; i++) {
      const { file, g } = randomFile(r, i);
      const eager = load(file, Infinity);
      const back = load(file, 0, r);
      if ("crash" in eager) ds.push({ file, what: `eager crash ${eager.crash}`, a: eager, b: back });
      const d = diff(eager, back);
      if (d) ds.push({ file, what: `read-back: ${d}`, a: eager, b: back });
      if ("chunks" in eager) {
        ok++;
        if (chance(r, 0.3)) {
          const index = loadChunks(file, { readBackFrom: 0 });
          const bad = checkLinesAfterTouch(file, index);
          if (bad.length) ds.push({ file, what: `lines: ${bad.slice(0, 3).join("; ")}`, a: 0, b: 0 });
        }
      } else errs++;
      if (ds.length >= 20) break;
    }
    console.log(`one thread: ${ok} files loaded, ${errs} refused, ${ds.length} divergences`);
    expect(report(ds)).toBe("");
  }, 600_000);

  it("lines ending at, before and after the block boundaries (32 KiB reads, buffer growth)", () => {
    const r = mulberry32(SEED + 1);
    const ds: Divergence[] = [];
    /** A chunk line of exactly `len` bytes whose text ends with `tail`. */
    const sized = (id: string, len: number, tail: string): Buffer => {
      const head = Buffer.from(`{"id":${JSON.stringify(id)},"doc":"d","text":"`);
      const end = Buffer.from(`${tail}"}`, "utf8");
      const fill = len - head.length - end.length;
      if (fill < 0) throw new Error("too short");
      return Buffer.concat([head, Buffer.alloc(fill, 0x61), end]);
    };
    let n = 0;
    const targets = FULL ? [BLOCK, 2 * BLOCK, 4 * BLOCK, 1 << 20, (1 << 20) + BLOCK] : [BLOCK, 2 * BLOCK];
    const tails = FULL ? ["", "é", "नी", "😀", "\\u00e9", "\\ud83d\\ude00"] : ["", "😀", "\\u00e9"];
    const deltas = FULL ? [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5] : [-2, -1, 0, 1, 2];
    for (const target of targets) {
      for (const bom of [false, true]) {
        for (const ending of ["\n", "\r\n", "\r"]) {
          for (const tail of tails) {
            for (const delta of deltas) {
              // the first line's bytes (BOM included) end `delta` bytes from `target`
              const len = target + delta - (bom ? 3 : 0);
              const first = sized("first", len, tail);
              const second = sized("second", 200 + int(r, 300), pick(r, ["", "😀", "é"]));
              const third = sized("third", BLOCK - 10 + int(r, 20), pick(r, ["", "😀"]));
              const body = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), first, Buffer.from(ending), second, Buffer.from(ending), third, Buffer.from(chance(r, 0.5) ? ending : "")]);
              const file = join(dir, `block-${n++}.jsonl`);
              writeFileSync(file, body);
              const eager = load(file, Infinity);
              const back = load(file, 0, r);
              const d = diff(eager, back) ?? ("chunks" in eager ? undefined : `eager refused: ${JSON.stringify(eager).slice(0, 200)}`);
              if (d) ds.push({ file, what: `target ${target} delta ${delta} ending ${JSON.stringify(ending)} tail ${tail} bom ${bom}: ${d}`, a: eager, b: back });
            }
          }
        }
      }
    }
    console.log(`block boundaries: ${n} files`);
    expect(report(ds)).toBe("");
  }, 600_000);

  it("more bad lines than MAX_PROBLEMS (50), blank-only, empty, BOM-only files, a line over 16 MiB", () => {
    const ds: Divergence[] = [];
    const cases: [string, Buffer][] = [
      ["empty", Buffer.alloc(0)],
      ["bom only", Buffer.from([0xef, 0xbb, 0xbf])],
      ["blank lines", Buffer.from("\n\n  \n\t\r\n\r\r\n")],
      ["bom blank", Buffer.from("\ufeff\n \n")],
      ["60 bad then good", Buffer.from([...Array.from({ length: 60 }, (_, i) => `{bad ${i}`), JSON.stringify({ id: "a", doc: "d", text: "t" })].join("\n"))],
      ["good then 60 bad", Buffer.from([JSON.stringify({ id: "a", doc: "d", text: "t" }), ...Array.from({ length: 60 }, (_, i) => `{bad ${i}`)].join("\r\n"))],
      ["50 bad + dup", Buffer.from([...Array.from({ length: 50 }, (_, i) => `{bad ${i}`), JSON.stringify({ id: "a", doc: "d", text: "t" }), JSON.stringify({ id: "a", doc: "d", text: "t" })].join("\n"))],
      ["49 bad + long", Buffer.from([...Array.from({ length: 49 }, (_, i) => `{bad ${i}`), JSON.stringify({ id: "a", doc: "d", text: "t" })].join("\n"))],
      ["dups", Buffer.from([JSON.stringify({ id: "a", doc: "d", text: "t" }), JSON.stringify({ id: "b", doc: "d", text: "t" }), JSON.stringify({ id: "a", doc: "d", text: "u" })].join("\r"))],
      ["over 16 MiB", Buffer.from(JSON.stringify({ id: "a", doc: "d", text: "é".repeat((16 << 20) + 5) }) + "\n" + JSON.stringify({ id: "b", doc: "d", text: "t" }))],
    ];
    for (const [name, bytes] of cases) {
      const file = join(dir, `${name.replace(/ /g, "-")}.jsonl`);
      writeFileSync(file, bytes);
      const eager = load(file, Infinity);
      const back = load(file, 0);
      const d = diff(eager, back);
      if (d) ds.push({ file, what: `${name}: ${d}`, a: eager, b: back });
      console.log(`${name}: ${"chunks" in eager ? `${eager.chunks.length} chunks` : JSON.stringify(eager).slice(0, 160)}`);
    }
    expect(report(ds)).toBe("");
  }, 600_000);

  it(`random files, two threads (${TWO} files)`, async () => {
    const r = mulberry32(SEED + 2);
    const ds: Divergence[] = [];
    let used = 0;
    let fellBack = 0;
    for (let i = 0; i < TWO; i++) {
      const { file, g } = randomFile(r, 100_000 + i);
      const eager = load(file, Infinity);
      const wanted = randomWanted(r, g);
      const two = await loadTwo(file, wanted, r);
      const d = diff(eager, two.snap);
      if (d) ds.push({ file, what: `two threads (wanted ${JSON.stringify(wanted).slice(0, 100)}): ${d}`, a: eager, b: two.snap });
      if (two.readBack) used++;
      else fellBack++;
      if (two.index && two.readBack) {
        const fresh = await loadChunksOnTwoThreads(file, wanted, 0);
        const bad = checkLinesAfterTouch(file, fresh);
        if (bad.length) ds.push({ file, what: `two-thread lines: ${bad.slice(0, 3).join("; ")}`, a: 0, b: 0 });
      }
      if (ds.length >= 10) break;
    }
    console.log(`two threads: ${used} with read-back chunks, ${fellBack} without (fallback, all wanted or error)`);
    expect(report(ds)).toBe("");
  }, 900_000);

  it("two threads: the middle of the file on a CR, a CRLF, inside a multi-byte character, inside a long line", async () => {
    const r = mulberry32(SEED + 3);
    const ds: Divergence[] = [];
    const line = (id: string, text: string) => Buffer.from(JSON.stringify({ id, doc: `doc-${id.slice(0, 2)}`, text }), "utf8");
    let used = 0;
    let n = 0;
    const regions: [string, Buffer][] = [
      ["lone CRs", Buffer.concat(Array.from({ length: 12 }, (_, i) => Buffer.concat([line(`cr${i}`, "é😀 x"), Buffer.from("\r")])))],
      ["CRLFs", Buffer.concat(Array.from({ length: 12 }, (_, i) => Buffer.concat([line(`cl${i}`, "😀"), Buffer.from("\r\n")])))],
      ["CR CR LF", Buffer.concat(Array.from({ length: 12 }, (_, i) => Buffer.concat([line(`cc${i}`, "a"), Buffer.from(i % 2 ? "\r\r\n" : "\r\n\r")])))],
      ["multibyte", Buffer.concat([line("mb0", "😀".repeat(40) + "नीति".repeat(20)), Buffer.from("\n"), line("mb1", "𝄞é".repeat(30)), Buffer.from("\n")])],
      ["long line", Buffer.concat([line("lg0", "y".repeat(70_000) + "😀"), Buffer.from("\r\n"), line("lg1", "short"), Buffer.from("\n")])],
      ["blank run", Buffer.from("\n".repeat(30) + "\r\n \r\n\t\n")],
    ];
    for (const [name, region] of regions) {
      if (process.env.FUZZ_REGION && !name.includes(process.env.FUZZ_REGION)) continue;
      // lines before the region, long enough that the tail can always move the middle onto any byte of the region
      const before = Buffer.concat([
        ...Array.from({ length: 5 }, (_, i) => Buffer.concat([line(`b${name.length}-${i}`, `before ${i} é`), Buffer.from("\n")])),
        line(`bp${name.length}`, "p".repeat(region.length + 100)),
        Buffer.from("\n"),
      ]);
      const base = before.length + region.length;
      const L = region.length;
      const ks = !FULL
        ? Array.from({ length: 3 }, () => int(r, L))
        : L <= 400
          ? Array.from({ length: L }, (_, i) => i)
          : [...Array.from({ length: 30 }, (_, i) => i), ...Array.from({ length: 30 }, (_, i) => L - 30 + i), ...Array.from({ length: 20 }, () => int(r, L))];
      for (const k of ks) {
        // middle = floor(size/2) lies at before.length + k
        const size = 2 * (before.length + k) + int(r, 2);
        const last = Buffer.concat([line("zz-last", "x"), Buffer.from("\n")]);
        const tailLen = size - base - 1 - last.length;
        const t = line("zz-tail", "");
        if (tailLen < t.length) throw new Error("tail too short");
        const tail = Buffer.concat([t.subarray(0, t.length - 2), Buffer.alloc(tailLen - t.length, 0x74), t.subarray(t.length - 2)]);
        const body = Buffer.concat([before, region, tail, Buffer.from("\n"), last]);
        const file = join(dir, `mid-${n++}.jsonl`);
        writeFileSync(file, body);
        const eager = load(file, Infinity);
        const two = await loadTwo(file, { all: false, docs: [], ids: [] }, r);
        if (two.readBack) used++;
        const d = diff(eager, two.snap) ?? ("chunks" in eager ? undefined : `eager refused ${JSON.stringify(eager).slice(0, 200)}`);
        if (d) ds.push({ file, what: `${name} k=${k}: ${d}`, a: eager, b: two.snap });
        if (two.index && two.readBack && k % 5 === 0) {
          // lines as the eager parser counts them: every \n, \r\n and lone \r ends one
          const lineOf = new Map<string, number>();
          const text = body.toString("utf8").replace(/\r\n?/g, "\n").split("\n");
          text.forEach((l, i) => {
            try { const j = JSON.parse(l) as { id: string }; if (!lineOf.has(j.id)) lineOf.set(j.id, i + 1); } catch { /* blank */ }
          });
          const fresh = await loadChunksOnTwoThreads(file, { all: false, docs: [], ids: [] }, 0);
          const bad = checkLinesAfterTouch(file, fresh, lineOf);
          if (bad.length) ds.push({ file, what: `${name} k=${k} lines: ${bad.slice(0, 3).join("; ")}`, a: 0, b: 0 });
        }
        if (ds.length >= 10) break;
      }
    }
    console.log(`middle sweep: ${n} files, ${used} read back on two threads`);
    expect(report(ds)).toBe("");
  }, 900_000);
});

// ---------------------------------------------------------------- a file changed after the load
describe("a chunks file changed after a read-back load", () => {
  const lineOf = (id: string, text: string) => JSON.stringify({ id, doc: "d", text });
  const changedMsg = (file: string, line: number, id: string) => `${file}:${line}: text: the chunks file changed after it was loaded (chunk ${JSON.stringify(id)}); run again`;
  const msgOf = (fn: () => unknown): string => {
    try {
      return `returned ${JSON.stringify(fn())}`;
    } catch (e) {
      return (e as Error).message;
    }
  };
  /** Two chunks whose lines are more than the 8 KiB read-back window apart, texts of equal length. */
  const twoFar = (file: string) => {
    const lines = [lineOf("a", "AAAA"), lineOf("pad", "p".repeat(20_000)), lineOf("b", "BBBB")];
    writeFileSync(file, lines.join("\n") + "\n");
    return lines;
  };

  it("append, before any read: the read throws 'changed'", () => {
    const f = join(dir, "chg-append.jsonl");
    twoFar(f);
    const idx = loadChunks(f, { readBackFrom: 0 });
    appendFileSync(f, lineOf("c", "C") + "\n");
    expect(msgOf(() => idx.byId.get("b")!.text)).toBe(changedMsg(f, 3, "b"));
  });

  it("touch (mtime only), before any read: the read throws 'changed' though the bytes are the same", () => {
    const f = join(dir, "chg-touch.jsonl");
    twoFar(f);
    const idx = loadChunks(f, { readBackFrom: 0 });
    const st = statSync(f);
    utimesSync(f, st.atime, new Date(st.mtimeMs + 1000));
    expect(msgOf(() => idx.byId.get("a")!.text)).toBe(changedMsg(f, 1, "a"));
  });

  it("same-size in-place rewrite, before any read: the read throws 'changed'", () => {
    const f = join(dir, "chg-same-size.jsonl");
    const lines = twoFar(f);
    const idx = loadChunks(f, { readBackFrom: 0 });
    // swap the texts of a and b: same size, same inode (writeFileSync truncates and writes in place)
    writeFileSync(f, [lines[0]!.replace("AAAA", "BBBB"), lines[1], lines[2]!.replace("BBBB", "AAAA")].join("\n") + "\n");
    expect(msgOf(() => idx.byId.get("b")!.text)).toBe(changedMsg(f, 3, "b"));
  });

  it("same-size in-place rewrite AFTER a first read (descriptor held): a later read should throw 'changed', not another chunk's text", () => {
    const f = join(dir, "chg-same-size-after.jsonl");
    const lines = twoFar(f);
    const idx = loadChunks(f, { readBackFrom: 0 });
    expect(idx.byId.get("a")!.text).toBe("AAAA"); // opens the descriptor; its window (8 KiB) does not reach b
    writeFileSync(f, [lines[0]!.replace("AAAA", "BBBB"), lines[1], lines[2]!.replace("BBBB", "AAAA")].join("\n") + "\n");
    expect(msgOf(() => idx.byId.get("b")!.text)).toBe(changedMsg(f, 3, "b"));
  });

  it("in-place write through another descriptor AFTER a first read (no truncate): a later read should throw 'changed'", () => {
    const f = join(dir, "chg-pwrite-after.jsonl");
    const lines = twoFar(f);
    const idx = loadChunks(f, { readBackFrom: 0 });
    expect(idx.byId.get("a")!.text).toBe("AAAA");
    const at = Buffer.byteLength(lines[0]! + "\n" + lines[1]! + "\n") + lines[2]!.indexOf("BBBB");
    const fd = openSync(f, "r+");
    writeSync(fd, Buffer.from("AAAA"), 0, 4, at);
    closeSync(fd);
    expect(msgOf(() => idx.byId.get("b")!.text)).toBe(changedMsg(f, 3, "b"));
  });

  it("truncated AFTER a first read: a later read throws 'changed'", () => {
    const f = join(dir, "chg-trunc-after.jsonl");
    twoFar(f);
    const idx = loadChunks(f, { readBackFrom: 0 });
    expect(idx.byId.get("a")!.text).toBe("AAAA");
    const fd = openSync(f, "r+");
    ftruncateSync(fd, 30);
    closeSync(fd);
    expect(msgOf(() => idx.byId.get("b")!.text)).toBe(changedMsg(f, 3, "b"));
  });

  it("deleted before any read: the read says the file changed (not 'file not found')", () => {
    const f = join(dir, "chg-deleted.jsonl");
    twoFar(f);
    const idx = loadChunks(f, { readBackFrom: 0 });
    rmSync(f);
    expect(msgOf(() => idx.byId.get("a")!.text)).toBe(changedMsg(f, 1, "a"));
  });

  it("replaced by rename with the same bytes before any read: 'changed' (new inode)", () => {
    const f = join(dir, "chg-renamed.jsonl");
    twoFar(f);
    const idx = loadChunks(f, { readBackFrom: 0 });
    const tmp = f + ".tmp";
    writeFileSync(tmp, readFileSync(f));
    renameSync(tmp, f);
    expect(msgOf(() => idx.byId.get("a")!.text)).toBe(changedMsg(f, 1, "a"));
  });
});
