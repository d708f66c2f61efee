/**
 * The gate's documentation is its code (issue 12): the README's table is
 * rendered from the rules the gate builds its messages from, every refusal
 * the gate can give is in the table, and each message opens with its row's
 * words.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gateDecision } from "../../src/calibration/gate.js";
import { LABEL_RULES, renderTrustRulesMarkdown, TRUST_RULES, trustRule, type UntrustedReason } from "../../src/calibration/trust-rules.js";
import { ROOT } from "../helpers/paths.js";

const T = { minLabels: 50, minPerClass: 10, kappaLower: 0.6, minCoverage: 0.8 };
const fig = (over: Record<string, unknown> = {}) => ({ n: 80, labelYes: 45, labelNo: 35, reasons: {}, level: 0.95, kappa: 0.8, kappaSe: 0.05, kappaCi: { lo: 0.7, hi: 0.9 }, ...over });
const none = { nonRandom: 0, notHeldout: 0 };

describe("the trust gate's rules", () => {
  it("are the README's table, row for row", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(renderTrustRulesMarkdown());
  });

  it("cover every reason the gate gives, in the order it checks them", () => {
    const reasons: UntrustedReason[] = ["trust-unknown", "no-calibration", "served-model-changed", "stale", "labels-not-random", "incomplete-draw", "author-labels", "too-few-labels", "kappa-undefined", "kappa-uninformative", "kappa-too-low"];
    expect(TRUST_RULES.map((r) => r.id)).toEqual(reasons);
    expect(LABEL_RULES.map((r) => r.id)).toEqual(["wording", "frame", "not-drawn", "draw-not-covering", "draw-incomplete", "split"]);
  });

  it("open each message of the gate's own rule with the row's words", () => {
    const cases: [UntrustedReason, ReturnType<typeof gateDecision>][] = [
      ["labels-not-random", gateDecision(fig({ n: 0, labelYes: 0, labelNo: 0, kappa: null, kappaSe: null, kappaCi: null }), { nonRandom: 0, notHeldout: 0, notDrawn: 12 }, T)],
      ["incomplete-draw", gateDecision(fig({}), none, T, undefined, { unfinished: [{ id: "0123456789abcdef", annotator: "asha", drawn: 20, labelled: 12 }] })],
      ["author-labels", gateDecision(fig({}), none, T, undefined, { author: { items: 3, files: ["labels/demo.jsonl"] } })],
      ["too-few-labels", gateDecision(fig({ n: 20 }), none, T)],
      ["kappa-undefined", gateDecision(fig({ kappa: null, kappaSe: null, kappaCi: null, reasons: { kappa: "0/0" } }), none, T)],
      ["kappa-uninformative", gateDecision(fig({ kappa: 0, kappaSe: 0, confusion: { tp: 45, fp: 35, fn: 0, tn: 0 } }), none, T)],
      ["kappa-too-low", gateDecision(fig({ kappa: 0.62 }), none, T)],
    ];
    for (const [reason, d] of cases) {
      expect(d.reason).toBe(reason);
      expect(d.message.startsWith(trustRule(reason).says), d.message).toBe(true);
    }
    expect(gateDecision(fig({ n: 0, labelYes: 0, labelNo: 0, kappa: null, kappaSe: null, kappaCi: null }), { nonRandom: 0, notHeldout: 0, notDrawn: 12 }, T).message).toContain("12 random-frame labels outside any recorded draw");
  });

  it("asks a project to move its author labels out, and never the shipped example, whose labels stay as shipped", () => {
    const own = gateDecision(fig({}), none, T, undefined, { author: { items: 3, files: ["/tmp/my-eval/labels/me.jsonl"] } }).message;
    expect(own).toContain("move them out of the labels folder (/tmp/my-eval/labels/me.jsonl)");
    const shipped = gateDecision(fig({}), none, T, undefined, { author: { items: 3, files: [join(ROOT, "labels", "ragjudge-authors.jsonl")] } }).message;
    expect(shipped).not.toContain("move them out");
    expect(shipped).toContain("are the shipped example's (labels/ragjudge-authors.jsonl) and stay as shipped");
    expect(shipped).toContain("ragjudge init my-eval");
  });
});
