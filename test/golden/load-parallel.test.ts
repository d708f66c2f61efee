import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isCheckedUnique, loadGolden, loadPipelineOutput, loadVariants, relevantSets } from "../../src/golden/dataset.js";
import { InputErrors } from "../../src/golden/errors.js";
import { keepForNextLoad, parseJsonl } from "../../src/golden/jsonl.js";
import { idChecker, loadVariantsParallel, startOutputLoad } from "../../src/golden/load-parallel.js";
import { knownRelevantRanks } from "../../src/golden/relevant-ranks.js";
import { PipelineOutput } from "../../src/golden/schema/pipeline.js";
import { mulberry32 } from "../helpers/seeded.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("ragjudge-load-parallel-");
const rand = mulberry32(7);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;

/** A golden set of `n` questions and an output line for most, in every shape a line may take. */
function writeInputs(name: string, corrupt: (lines: string[]) => void = () => {}, n = 300) {
  const golden = join(dir, `${name}.golden.jsonl`);
  const output = join(dir, `${name}.output.jsonl`);
  const chunks = join(dir, `${name}.chunks.jsonl`);
  const g: string[] = [];
  const o: string[] = [];
  const c: string[] = [];
  for (let d = 0; d < 30; d++) for (let k = 0; k < 5; k++) c.push(JSON.stringify({ id: `d${d}#${k}`, doc: `d${d}`, text: `document ${d} part ${k} alpha beta gamma delta` }));
  for (let i = 0; i < n; i++) {
    g.push(JSON.stringify({ id: `q${i}`, question: `question ${i}?`, relevant: [`d${i % 30}#${i % 5}`] }));
    if (i % 7 === 3) continue; // a question without output
    const ids = Array.from({ length: 40 }, (_, k) => `d${(i + k) % 30}#${k % 5}`).filter((x, k, a) => a.indexOf(x) === k);
    const entry = (id: string) => pick([() => id, () => ({ id, score: Math.round(rand() * 1000) / 10 })])();
    const line: Record<string, unknown> = { id: `q${i}`, retrieved: ids.map(entry) };
    if (i % 5 === 0) line.retrieved = [{ text: `passage as text ${i}`, doc: `d${i % 30}` }, ...(line.retrieved as unknown[])];
    if (i % 3 === 0) line.answer = `answer ${i} [1]`;
    if (i % 4 === 0) line.context = ids.slice(0, 3);
    if (i % 6 === 0) line.stages = { first: ids.slice(0, 10).reverse() };
    if (i % 9 === 0) line.meta = { latencyMs: i };
    o.push(JSON.stringify(line));
  }
  corrupt(o);
  writeFileSync(golden, `${g.join("\n")}\n`);
  writeFileSync(output, `${o.join("\n")}\n`);
  writeFileSync(chunks, `${c.join("\n")}\n`);
  return { golden, output, chunks };
}

/** The messages of the input error `fn` rejects or throws with, and whether it came as a list. */
async function failure(fn: () => unknown): Promise<{ many: boolean; messages: string[] }> {
  try {
    await fn();
  } catch (e) {
    const many = e instanceof InputErrors;
    return { many, messages: many ? e.problems.map((p) => p.message) : [(e as Error).message] };
  }
  throw new Error("expected an input error");
}

describe("startOutputLoad", () => {
  it("loads a pipeline output on a worker thread to the very lines, line numbers and key order of a load on this thread (blocks of 1,000 lines)", async () => {
    const f = writeInputs("same", undefined, 2_600);
    const golden = loadGolden(f.golden);
    const pending = startOutputLoad(f.output, golden, 0);
    expect(pending.onThread).toBe(true);
    const threaded = await pending.take();
    const here = loadPipelineOutput(f.output, golden);
    expect([...threaded.outputs.keys()]).toEqual([...here.outputs.keys()]);
    expect(JSON.stringify([...threaded.outputs.values()])).toBe(JSON.stringify([...here.outputs.values()]));
    expect(threaded).toEqual(here);
    // the uniqueness check the worker made counts here too: scoring does not check the lists again
    expect([...threaded.outputs.values()].every((o) => isCheckedUnique(o.retrieved))).toBe(true);
  });

  it.each([
    ["bad JSON", (o: string[]) => (o[10] = "{not json")],
    ["a field zod refuses", (o: string[]) => (o[20] = JSON.stringify({ id: "q1", retrieved: [{ id: "x", score: "high" }] }))],
    ["a duplicate line, a question not in the golden set and an id twice in a list", (o: string[]) => o.push(o[0]!, JSON.stringify({ id: "nope", retrieved: ["a"] }), JSON.stringify({ id: "q3", retrieved: ["a", "b", "a"] }))],
    ["an id three times in one retrieved list, given as an id and as entries, and twice in a stage list", (o: string[]) => (o[1] = JSON.stringify({ id: "q1", retrieved: ["a", { id: "b" }, { id: "a", score: 1 }, "c", "a"], stages: { first: ["x", "y", "x"] } }))],
  ])("rejects %s with the problems, in the order and form, of a load on this thread", async (_name, corrupt) => {
    const f = writeInputs(`bad-${_name.length}`, corrupt);
    const golden = loadGolden(f.golden);
    const here = await failure(() => loadPipelineOutput(f.output, golden));
    const pending = startOutputLoad(f.output, golden, 0);
    expect(pending.onThread).toBe(true);
    expect(await failure(() => pending.take())).toEqual(here);
    expect(here.messages.length).toBeGreaterThan(0);
  });

  it("loads here a missing file (worded as before), a small one, and one whose rows validate kept", async () => {
    const f = writeInputs("here");
    const golden = loadGolden(f.golden);
    const missing = join(dir, "missing.jsonl");
    const pendingMissing = startOutputLoad(missing, golden, 0);
    expect(pendingMissing.onThread).toBe(false);
    expect(await failure(() => pendingMissing.take())).toEqual(await failure(() => loadPipelineOutput(missing, golden)));
    expect(startOutputLoad(f.output, golden).onThread).toBe(false); // below the default size
    const { rows } = parseJsonl(readFileSync(f.output, "utf8"), f.output, PipelineOutput);
    keepForNextLoad(f.output, PipelineOutput, rows);
    const kept = startOutputLoad(f.output, golden, 0);
    expect(kept.onThread).toBe(false);
    expect((await kept.take()).outputs.get("q0")).toBe(rows[0]!.value); // the kept rows themselves, not a second parse
  });
});

describe("loadVariantsParallel", () => {
  it("gives the variants loadVariants gives, calling back with each chunk index while the output loads", async () => {
    const f = writeInputs("variants");
    const golden = loadGolden(f.golden);
    const vs = [
      { name: "a", output: f.output, chunks: f.chunks, contextK: 5, stages: { first: [] } },
      { name: "b", output: f.output, chunks: f.chunks, contextK: 3, stages: { first: ["first"] } },
    ];
    const seen: string[] = [];
    const parallel = await loadVariantsParallel(vs, golden, undefined, (v) => void seen.push(`${v.chunksFile}:${v.chunks.byId.size}`), 0);
    const serial = loadVariants(vs, golden);
    expect(seen).toEqual([`${f.chunks}:150`, `${f.chunks}:150`]);
    expect(parallel.map((v) => ({ ...v, chunks: [...v.chunks.byId.keys()] }))).toEqual(serial.map((v) => ({ ...v, chunks: [...v.chunks.byId.keys()] })));
  });

  it("works out each list's relevant ranks from its numbers as its block comes in, when the callback gives the relevant sets", async () => {
    const f = writeInputs("ranked", undefined, 2_600);
    const golden = loadGolden(f.golden);
    const sets: ReadonlyMap<string, ReadonlySet<string>>[] = [];
    const [v] = await loadVariantsParallel([{ name: "a", output: f.output, chunks: f.chunks, contextK: 5, stages: { first: [] } }], golden, undefined, (files) => {
      const rel = relevantSets(golden, files.chunks);
      sets.push(rel);
      return rel;
    }, 0);
    const rel = sets[0]!;
    let known = 0;
    for (const [id, out] of v!.outputs) {
      const ranks = knownRelevantRanks(out.retrieved, rel.get(id)!);
      expect(ranks, id).toEqual(out.retrieved.flatMap((c, i) => (rel.get(id)!.has(c) ? [i + 1] : [])));
      known++;
    }
    expect(known).toBe(v!.outputs.size);
    expect(known).toBeGreaterThan(2_000);
  });

  it("reports a bad chunks file before a bad output, as loadVariants does", async () => {
    const f = writeInputs("both-bad", (o) => (o[0] = "{"));
    writeFileSync(f.chunks, "{also bad\n");
    const golden = loadGolden(f.golden);
    const vs = [{ name: "a", output: f.output, chunks: f.chunks, contextK: 5, stages: { first: [] } }];
    const serial = await failure(() => loadVariants(vs, golden));
    expect(serial.messages[0]).toContain("chunks.jsonl:1");
    expect(await failure(() => loadVariantsParallel(vs, golden, undefined, undefined, 0))).toEqual(serial);
  });

  it("with the next variant's output loading early (timed by bench:golden's two-variant case), fails as loadVariants does whichever variant is bad, and gives its variants", async () => {
    const good = writeInputs("next-good");
    const badOutput = writeInputs("next-bad-output", (o) => (o[3] = "{"));
    const badChunks = writeInputs("next-bad-chunks");
    writeFileSync(badChunks.chunks, "{also bad\n");
    const golden = loadGolden(good.golden);
    const variant = (name: string, f: { output: string; chunks: string }) => ({ name, output: f.output, chunks: f.chunks, contextK: 5, stages: { first: [] } });
    for (const vs of [
      [variant("a", good), variant("b", badOutput)],
      [variant("a", badOutput), variant("b", good)],
      [variant("a", badChunks), variant("b", badOutput)],
      [variant("a", good), variant("b", badChunks), variant("c", badOutput)],
    ]) {
      const serial = await failure(() => loadVariants(vs, golden));
      expect(await failure(() => loadVariantsParallel(vs, golden, undefined, undefined, 0))).toEqual(serial);
    }
    const three = [variant("a", good), variant("b", good), variant("c", good)];
    const seen: string[] = [];
    const parallel = await loadVariantsParallel(three, golden, undefined, (v) => void seen.push(v.chunksFile!), 0);
    expect(seen).toEqual([good.chunks, good.chunks, good.chunks]);
    expect(parallel.map((v) => [v.name, v.outputs.size])).toEqual(loadVariants(three, golden).map((v) => [v.name, v.outputs.size]));
  });
});

describe("idChecker", () => {
  const row = (value: Partial<PipelineOutput>, line = 1) => ({ line, value: { id: "q", retrieved: [], ...value } as PipelineOutput });
  const known = new Map([["a", 1], ["b", 1]]);

  it("checks blocks that came before the chunk ids were known, and those after", () => {
    const c = idChecker();
    c.add(["a"], [row({ context: ["b"] })]);
    expect(c.allKnown()).toBe(false); // nothing is known before the map is
    c.against(known);
    expect(c.allKnown()).toBe(true);
    c.add(["b"], [row({ stages: { first: ["a", "b"] } })]);
    expect(c.allKnown()).toBe(true);
  });

  it.each([
    ["a fresh retrieved id, before the map", (c: ReturnType<typeof idChecker>) => (c.add(["a", "x"], []), c.against(known))],
    ["a fresh retrieved id, after the map", (c: ReturnType<typeof idChecker>) => (c.against(known), c.add(["x"], []))],
    ["a context id", (c: ReturnType<typeof idChecker>) => (c.against(known), c.add([], [row({ context: ["a"] }), row({ context: ["x"] })]))],
    ["a stage id", (c: ReturnType<typeof idChecker>) => (c.add([], [row({ stages: { first: ["a"], second: ["b", "x"] } })]), c.against(known))],
  ])("finds %s unknown", (_name, feed) => {
    const c = idChecker();
    feed(c);
    c.add(["a"], []);
    expect(c.allKnown()).toBe(false);
  });

  it("answers as Map.has over every id, for blocks of thousands of ids before and after the map, ids sharing a hash, and a map of 10,000 chunk ids", () => {
    const next = mulberry32(20261210);
    // FNV-1a pairs with one hash each (ranked-codes.ts): only one of each pair is a chunk id
    const pairs = [["c65229", "c503230"]];
    const chunkIds = [...Array.from({ length: 10_000 }, (_, i) => `doc-${i % 700}#${i}`), ...pairs.map(([one]) => one!)];
    const map = new Map(chunkIds.map((id) => [id, 1]));
    // this round's ids that are no chunk's: none, the id sharing a known id's hash, or others
    let stray: (() => string) | undefined;
    const pick = () => (stray && next() < 0.0005 ? stray() : chunkIds[Math.floor(next() * chunkIds.length)]!);
    const outcomes = new Set<boolean>();
    for (let round = 0; round < 60; round++) {
      const kind = Math.floor(next() * 3);
      stray = kind === 0 ? undefined : kind === 1 ? () => pairs[0]![1]! : () => `elsewhere-${Math.floor(next() * 1e6)}`;
      const c = idChecker();
      const blocks = 1 + Math.floor(next() * 4);
      const knownAt = Math.floor(next() * (blocks + 1));
      let all = true;
      for (let b = 0; b < blocks; b++) {
        if (b === knownAt) c.against(map);
        const fresh = Array.from({ length: Math.floor(next() * 3_000) }, pick);
        const rows = Array.from({ length: Math.floor(next() * 40) }, (_, i) =>
          row({ ...(next() < 0.5 ? { context: Array.from({ length: Math.floor(next() * 10) }, pick) } : {}), ...(next() < 0.5 ? { stages: { first: Array.from({ length: Math.floor(next() * 400) }, pick), second: [pick()] } } : {}) }, i + 1),
        );
        all &&= fresh.every((id) => map.has(id)) && rows.every(({ value }) => [...(value.context ?? []), ...Object.values(value.stages ?? {}).flat()].every((id) => map.has(id)));
        c.add(fresh, rows);
      }
      if (knownAt === blocks) c.against(map);
      expect(c.allKnown(), `round ${round}`).toBe(all);
      outcomes.add(all);
    }
    expect([...outcomes].sort()).toEqual([false, true]);
  });
});
