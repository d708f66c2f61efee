import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { InputErrors } from "../../src/golden/errors.js";
import { buildExample } from "../../scripts/example/example.js";
import { tempDir } from "../helpers/temp.js";
import { GOLDEN, ROOT } from "./helpers.js";

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function runBuild(args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", resolve(ROOT, "scripts/example/build.ts"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 120_000,
  });
}

describe("npm run example:build", () => {
  it("regenerates the committed variants and planted key byte for byte", () => {
    const out = tempDir("ragjudge-example-");
    const r = runBuild(["--out", out]);
    expect(r.stderr).toContain("wrote 5 files");
    expect(r.status).toBe(0);
    const produced = listFiles(out);
    expect(produced).toEqual([
      "answers/PLANTED.md",
      "variants/bm25-small/chunks.jsonl",
      "variants/bm25-small/output.jsonl",
      "variants/hybrid-rerank/chunks.jsonl",
      "variants/hybrid-rerank/output.jsonl",
    ]);
    // Nothing stale committed beside them.
    expect(listFiles(join(GOLDEN, "variants")).map((f) => `variants/${f}`)).toEqual(produced.filter((f) => f.startsWith("variants/")));
    for (const f of produced) {
      const a = readFileSync(join(out, f));
      const b = readFileSync(join(GOLDEN, f));
      expect(a.equals(b), `${f} differs from the committed file: run npm run example:build`).toBe(true);
    }
  });

  it("exits 2 with one located line per problem and writes nothing on bad input", () => {
    const root = tempDir("ragjudge-example-");
    cpSync(join(GOLDEN, "corpus"), join(root, "corpus"), { recursive: true });
    const lines = readFileSync(join(GOLDEN, "questions.jsonl"), "utf8").split("\n").filter(Boolean);
    const first = JSON.parse(lines[0]!) as { anchor: { text: string } };
    first.anchor.text = "leave"; // too short and not unique
    writeFileSync(join(root, "questions.jsonl"), [JSON.stringify(first), ...lines.slice(1)].join("\n") + "\n");
    const out = join(root, "out");
    const r = runBuild(["--root", root, "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/questions\.jsonl:1: anchor\.text: has 1 words; an anchor needs 6 to 20/);
    expect(r.stderr).toMatch(/questions\.jsonl:1: anchor\.text: occurs \d+ times in hr-leave-policy; it must occur exactly once/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(() => readdirSync(out)).toThrow();
  });

  it("rejects an unknown flag with exit 2", () => {
    const r = runBuild(["--outt", "x"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("usage:");
  });
});

/** A two-document example small enough to build in milliseconds. */
function tinyRoot(): string {
  const root = tempDir("ragjudge-example-");
  mkdirSync(join(root, "corpus"));
  writeFileSync(join(root, "corpus", "leave.md"), "# Leave\n\n## Casual leave\n\nYou get 8 days of casual leave a year. Unused casual leave lapses on 31 December every year.\n");
  writeFileSync(join(root, "corpus", "vpn.md"), "# VPN\n\n## Errors\n\nTUN-101 means the handshake did not complete. Run the fallback, which wraps the tunnel in TCP on port 443.\n");
  writeFileSync(
    join(root, "questions.jsonl"),
    [
      { id: "q1", question: "What is TUN-101?", anchor: { doc: "vpn", text: "TUN-101 means the handshake did not complete" }, kind: "lexical" },
      { id: "q2", question: "Do casual leaves lapse?", anchor: { doc: "leave", text: "Unused casual leave lapses on 31 December every year" }, kind: "factual" },
    ].map((q) => JSON.stringify(q)).join("\n") + "\n",
  );
  return root;
}

describe("buildExample", () => {
  it("builds outputs without answers when no answers exist yet, and is deterministic", () => {
    const root = tinyRoot();
    const a = buildExample(root);
    const b = buildExample(root);
    expect([...a.keys()]).toEqual(["variants/bm25-small/chunks.jsonl", "variants/bm25-small/output.jsonl", "variants/hybrid-rerank/chunks.jsonl", "variants/hybrid-rerank/output.jsonl"]);
    expect([...a.entries()]).toEqual([...b.entries()]);
    const q1 = JSON.parse(a.get("variants/hybrid-rerank/output.jsonl")!.split("\n")[0]!);
    expect(q1.id).toBe("q1");
    expect(q1.retrieved[0].id).toBe("vpn#0");
    expect(Object.keys(q1.stages)).toEqual(["bm25", "vector", "fused", "reranked"]);
    expect(q1.retrieved).toEqual(q1.stages.reranked);
    expect(q1.context).toEqual(q1.retrieved.slice(0, 5).map((e: { id: string }) => e.id));
    expect(q1.answer).toBeUndefined();
  });

  it("refuses answers written for another context, and a question without an answer", () => {
    const root = tinyRoot();
    mkdirSync(join(root, "answers"));
    const stale = { id: "q1", context: ["leave#0"], answer: "x [1].", planted: [] };
    writeFileSync(join(root, "answers", "bm25-small.jsonl"), JSON.stringify(stale) + "\n");
    let err: unknown;
    try {
      buildExample(root);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputErrors);
    const messages = (err as InputErrors).problems.map((p) => p.message).join("\n");
    expect(messages).toMatch(/bm25-small\.jsonl:1: context: written for context \[leave#0\] but retrieval now gives \[vpn#0.*\]; rewrite the answer/);
    expect(messages).toMatch(/bm25-small\.jsonl: no answer for question "q2"/);
  });
});
