import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../helpers/cli.js";
import { fixturePath } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const fx = fixturePath("retrieval");
const trec = fixturePath("trec", "small");
const config = join(fx, "ragjudge.config.json");
const explicit = ["--golden", join(fx, "golden.jsonl"), "--chunks", join(fx, "chunks.jsonl"), "--output", join(fx, "bm25.output.jsonl")];

describe("ragjudge retrieval (golden-set mode)", () => {
  it("prints means overall and by kind for every variant of the config", async () => {
    const r = await runCliCaptured(["retrieval", "--config", config, "-m", "R@5,RR"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/variant bm25\n/);
    expect(r.out).toMatch(/variant dense\n/);
    expect(r.out).toMatch(/overall\s+4\s+0\.3333\s+0\.5000/);
    expect(r.out).toMatch(/kind=factual\s+2/);
    expect(r.out).toContain("1 unanswerable left out of every mean");
    expect(r.out).toContain("1 answerable question has no pipeline output line: q05");
  });

  it("a person gets the headline measures by default, a program every trec_eval measure", async () => {
    const t = await runCliCaptured(["retrieval", ...explicit]);
    expect(t.code).toBe(0);
    expect(t.out.split("\n")[1]!.split(/\s+/)).toEqual(["group", "n", "RR", "R@1", "R@5", "R@10", "nDCG@10", "Hit@10"]);
    expect(t.out).toContain("(more measures (AP, R-Prec, P@k, RR@k, counts): -m all; definitions: --list-measures)");
    const all = await runCliCaptured(["retrieval", ...explicit, "-m", "all", "-k", "5"]);
    expect(all.out.split("\n")[1]!.split(/\s+/)).toEqual(["group", "n", "AP", "R-Prec", "RR", "RR@5", "P@5", "R@5", "nDCG@5", "Hit@5"]);
    expect(all.out).not.toContain("more measures");
    const j = JSON.parse((await runCliCaptured(["retrieval", ...explicit, "--format", "json"])).out).results[0];
    expect(Object.keys(j.overall.values)).toEqual(["num_q", "num_ret", "num_rel", "num_rel_ret", "AP", "R-Prec", "RR", "P@1", "P@5", "P@10", "R@1", "R@5", "R@10", "nDCG@1", "nDCG@5", "nDCG@10", "Hit@1", "Hit@5", "Hit@10"]);
  });

  it("--format json has one shape for one variant, several, and a TREC run: {results, floorsMissed, diagnostics}", async () => {
    const one = JSON.parse((await runCliCaptured(["retrieval", "--config", config, "--variant", "bm25", "--format", "json", "-m", "RR"])).out);
    const two = JSON.parse((await runCliCaptured(["retrieval", "--config", config, "--format", "json", "-m", "RR", "--fail-under", "RR=0.9"])).out);
    const run1 = JSON.parse((await runCliCaptured(["retrieval", "--qrels", join(trec, "qrels.txt"), "--trec-run", join(trec, "run.txt"), "--format", "json", "-m", "RR"])).out);
    for (const j of [one, two, run1]) expect(Object.keys(j)).toEqual(["results", "floorsMissed", "diagnostics"]);
    expect(one.results.map((r: { name: string }) => r.name)).toEqual(["bm25"]);
    expect(two.results.map((r: { name: string }) => r.name)).toEqual(["bm25", "dense"]);
    expect(Object.keys(one.results[0])).toEqual(Object.keys(two.results[0]));
    expect(one.results[0]).toEqual(two.results[0]);
    expect(two.floorsMissed.map((m: { name: string; label: string }) => `${m.name}:${m.label}`)).toEqual(["bm25:RR", "dense:RR"]);
    expect(one.diagnostics.map((d: { variant: string }) => d.variant)).toEqual(["bm25"]);
    expect(run1.results).toHaveLength(1);
    expect(run1.results[0].mode).toBe("trec");
    expect(run1.diagnostics).toEqual([]);
  });

  it("takes explicit inputs, naming the variant after the output file", async () => {
    const r = await runCliCaptured(["retrieval", ...explicit, "--format", "json", "-m", "RR", "--per-query", "--by", "tags"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out).results[0];
    expect(j.name).toBe("bm25");
    expect(j.overall).toEqual({ n: 4, values: { RR: (1 + 1 / 3) / 4 } });
    expect(j.groups.map((g: { key: string }) => g.key)).toEqual(["it", "policy", "travel"]);
    expect(j.perQuery.map((q: { id: string }) => q.id)).toEqual(["q01", "q02", "q03", "q05"]);
    expect(j.unanswerable).toEqual(["q04"]);
    expect(j.missing).toEqual(["q05"]);
  });

  it("refuses --by naming nothing, as -m and --fail-under do (it printed the means of no group)", async () => {
    const r = await runCliCaptured(["retrieval", ...explicit, "--by", ","]);
    expect(r.code).toBe(2);
    expect(r.err).toBe('ragjudge: error: --by "," names no grouping (kind, tags, split or none): give one or more, comma separated, or leave --by out for the default\n');
    expect(r.out).toBe("");
  });

  it("refuses --by none in a list with groupings, saying none stands alone (it called none an unknown grouping, then offered it)", async () => {
    const r = await runCliCaptured(["retrieval", ...explicit, "--by", "none,kind"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe('ragjudge: error: --by: "none" (overall only) stands alone, not in a list with groupings (got "none,kind"): give --by none, or the groupings without it\n');
  });

  it("--fail-under exits 1 and names each measure below its floor", async () => {
    const r = await runCliCaptured(["retrieval", ...explicit, "-m", "RR", "--fail-under", "R@10=0.70,RR=0.3,nDCG@5=0.9"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("ragjudge: floor missed: bm25: R@10 = 0.5000, below its floor 0.7");
    expect(r.err).toContain("ragjudge: floor missed: bm25: nDCG@5 = 0.3750, below its floor 0.9");
    expect(r.err).not.toContain("RR =");
    // floor measures are checked, not added to the table
    expect(r.out.split("\n")[1]).toMatch(/^group\s+n\s+RR$/);
  });

  it("--format trec prints trec_eval's layout for one variant; md prints a table", async () => {
    const t = await runCliCaptured(["retrieval", "--config", config, "--variant", "bm25", "--format", "trec", "-m", "RR,R@5"]);
    expect(t.code).toBe(0);
    expect(t.out.split("\n")[0]).toBe("recip_rank            \tq01\t1.0000");
    expect(t.out).toContain("recall_5              \tall\t0.5000\n");
    const m = await runCliCaptured(["retrieval", ...explicit, "--format", "md", "-m", "RR"]);
    expect(m.out).toContain("| overall | 4 | 0.3333 |");
  });

  it("exports the pipeline output as a TREC run and the golden relevance as qrels", async () => {
    const dir = tempDir("ragjudge-cli-");
    const r = await runCliCaptured(["retrieval", ...explicit, "-m", "RR", "--export-trec-run", join(dir, "run.txt"), "--export-qrels", join(dir, "qrels.txt")]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "run.txt"), "utf8").split("\n")[0]).toBe("q01 Q0 hr-leave#1 1 3 bm25");
    expect(readFileSync(join(dir, "qrels.txt"), "utf8")).toBe("q01 0 hr-leave#1 1\nq02 0 travel#0 1\nq03 0 it#0 1\nq05 0 hr-leave#2 1\n");
    const back = await runCliCaptured(["retrieval", "--qrels", join(dir, "qrels.txt"), "--trec-run", join(dir, "run.txt"), "-m", "RR", "--format", "json"]);
    expect(JSON.parse(back.out).results[0].overall.values.RR).toBeCloseTo((1 + 1 / 3) / 4, 15);
  });

  it("usage errors exit 2 with one line", async () => {
    for (const [args, msg] of [
      [["retrieval", "--config", config, "--format", "trec"], "--format trec needs one variant"],
      [["retrieval", "--config", config, "-m", "F1@5"], 'unknown measure "F1@5"'],
      [["retrieval", "--config", config, "--variant", "nope"], 'no variant "nope"'],
      [["retrieval", "--golden", join(fx, "golden.jsonl")], "explicit inputs need --golden and --output"],
      [["retrieval", ...explicit, "-l", "2"], "-l applies to graded qrels"],
      [["retrieval", "--config", config, "--variant", "bm25", "--format", "trec", "-m", "RR@5"], "RR@5 has no trec_eval measure"],
      [["retrieval", "--qrels", join(trec, "qrels.txt")], "--qrels and --trec-run go together"],
    ] as [string[], string][]) {
      const r = await runCliCaptured(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toContain(msg);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });

  it("bad input exits 2 naming file, line and field, never a stack trace", async () => {
    const dir = tempDir("ragjudge-bad-");
    const out = join(dir, "out.jsonl");
    writeFileSync(out, '{"id":"q01","retrieved":["a","a"]}\n{"id":"zz","retrieved":[]}\n');
    const r = await runCliCaptured(["retrieval", "--golden", join(fx, "golden.jsonl"), "--chunks", join(fx, "chunks.jsonl"), "--output", out]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${out}:1: retrieved[1]: chunk id "a" appears twice in the ranked list`);
    expect(r.err).toContain(`${out}:2: id: question "zz" is not in the golden set test/fixtures/retrieval/golden.jsonl`);
    const onlyUnanswerable = join(dir, "unanswerable.jsonl");
    writeFileSync(onlyUnanswerable, '{"id":"u1","question":"?","answerable":false}\n');
    writeFileSync(join(dir, "u.output.jsonl"), '{"id":"u1","retrieved":[]}\n');
    const u = await runCliCaptured(["retrieval", "--golden", onlyUnanswerable, "--chunks", join(fx, "chunks.jsonl"), "--output", join(dir, "u.output.jsonl")]);
    expect(u.code).toBe(2);
    expect(u.err).toBe(`ragjudge: error: ${onlyUnanswerable}: no answerable question: retrieval measures score answerable questions only (1 unanswerable left out)\n`);
    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    const e = await runCliCaptured(["retrieval", "--golden", empty, "--chunks", join(fx, "chunks.jsonl"), "--output", out]);
    expect(e.code).toBe(2);
    expect(e.err).toContain(`${empty}: file is empty`);
  });
});

describe("ragjudge retrieval --qrels --trec-run", () => {
  const args = ["retrieval", "--qrels", join(trec, "qrels.txt"), "--trec-run", join(trec, "run.txt"), "--format", "trec"];
  const stock = ["-m", "map", "-m", "recip_rank", "-m", "P.1,5,10", "-m", "recall.5,10,100", "-m", "ndcg_cut.5,10,100", "-m", "success.1,5,10"];

  it("prints byte-for-byte what trec_eval -q -c prints", async () => {
    const r = await runCliCaptured([...args, ...stock]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(readFileSync(join(trec, "trec_eval.c.txt"), "utf8"));
  });

  it("--no-complete, -l and --full-precision follow trec_eval", async () => {
    const noc = await runCliCaptured([...args, ...stock, "--no-complete"]);
    expect(noc.out).toBe(readFileSync(join(trec, "trec_eval-9.0.8.noc.txt"), "utf8"));
    const l2 = await runCliCaptured([...args, ...stock, "-m", "Rprec", "-m", "num_q,num_ret,num_rel,num_rel_ret", "-l", "2", "--full-precision"]);
    expect(l2.out).toBe(readFileSync(join(trec, "trec_eval.c.l2.full.txt"), "utf8"));
  });

  it("--format trec keeps stdout trec_eval's and counts ignored extra fields on stderr", async () => {
    const dir = tempDir("ragjudge-extra-");
    const q = join(dir, "qrels.txt");
    const r = join(dir, "run.txt");
    writeFileSync(q, "1 0 a 1\n");
    writeFileSync(r, "1 Q0 a 1 2.5 tag extra field\n1 Q0 b 2 1.5 tag\n");
    const t = await runCliCaptured(["retrieval", "--qrels", q, "--trec-run", r, "--format", "trec", "-m", "recip_rank"]);
    expect(t.code).toBe(0);
    expect(t.out).toBe("recip_rank            \t1\t1.0000\nrecip_rank            \tall\t1.0000\n");
    expect(t.err).toBe("ragjudge: warning: 1 run line has fields after the run tag; ignored, as trec_eval ignores them\n");
  });

  it("reports the table with notes on missing and run-only queries", async () => {
    const r = await runCliCaptured(["retrieval", "--qrels", join(trec, "qrels.txt"), "--trec-run", join(trec, "run.txt"), "-k", "10", "--fail-under", "P@10=0.2"]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/run run\.txt\n/);
    expect(r.out).toContain("3 qrels queries have no run line: 15, 50, 7; scored 0");
    expect(r.out).toContain("3 run queries are not in the qrels: 51, 52, 53; ignored");
    expect(r.err).toContain("P@10 = 0.1560, below its floor 0.2");
  });

  it("--help lists every measure from the registry", async () => {
    const r = await runCliCaptured(["retrieval", "--help"]);
    expect(r.code).toBe(0);
    for (const name of ["P@k", "R@k", "RR@k", "nDCG@k", "AP", "R-Prec", "Hit@k", "ndcg_cut_k", "recip_rank"]) expect(r.out).toContain(name);
  });
});
