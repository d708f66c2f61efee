/**
 * The trust gate's rules as records: what makes a rubric's scores trusted,
 * each way the gate refuses (with the words its message opens with), which
 * labels it counts, and what it only warns about. The gate's messages are
 * built from these phrases (src/calibration/gate.ts, src/calibration/trust.ts),
 * and the README's table is rendered from them ({@link renderTrustRulesMarkdown}),
 * so the documentation and the code cannot drift apart: a test compares them.
 */

/** Why a rubric's scores are not trusted (the first failed check, in the order of {@link TRUST_RULES}). */
export type UntrustedReason =
  | "trust-unknown"
  | "no-calibration"
  | "served-model-changed"
  | "stale"
  | "labels-not-random"
  | "incomplete-draw"
  | "author-labels"
  | "too-few-labels"
  | "kappa-undefined"
  | "kappa-uninformative"
  | "kappa-too-low";

/** Why a label is not counted by the gate (see `ExclusionReason` in src/calibration/pairing.ts). */
export type LabelRuleId = "wording" | "frame" | "not-drawn" | "draw-not-covering" | "draw-incomplete" | "split";

/** What the gate only warns about: the state does not change. */
export type WarningRuleId = "skips" | "declared" | "corrections";

/** One row of the gate's table. */
export interface TrustRule<Id extends string = string> {
  id: Id;
  kind: "refusal" | "label" | "warning";
  /** The check, in a few words. */
  check: string;
  /** What holds for a trusted rubric (or a counted label). */
  trustedWhen: string;
  /** The opening words of what the gate says otherwise (the message continues with the figures). */
  says: string;
}

/** Refusals, in the order the gate checks them: the first failed one is the reason. */
export const TRUST_RULES: readonly TrustRule<UntrustedReason>[] = [
  { id: "trust-unknown", kind: "refusal", check: "readable inputs", trustedWhen: "every labels file, draw and calibration record reads cleanly", says: "untrusted: trust state unknown" },
  { id: "no-calibration", kind: "refusal", check: "a calibration record", trustedWhen: "`ragjudge calibrate` wrote a record for this rubric's exact judge: its fingerprint (prompt, model, parameters) and the model the server said it served", says: "untrusted: no calibration record for this judge" },
  { id: "served-model-changed", kind: "refusal", check: "the same served model", trustedWhen: "today's verdicts come from the served model the record measured (an alias moved to a new snapshot is another judge)", says: "untrusted: served model changed from" },
  { id: "stale", kind: "refusal", check: "a current record", trustedWhen: "the record's verdicts hash, labels hash and draws equal today's, and so does the wording of the rubric's question it was made under (trust is recomputed from them everywhere, never remembered)", says: "untrusted: stale: run ragjudge calibrate" },
  { id: "labels-not-random", kind: "refusal", check: "random held-out labels", trustedWhen: "some labels count (next rows)", says: "untrusted: no label counts" },
  { id: "incomplete-draw", kind: "refusal", check: "every draw finished", trustedWhen: "every draw that covers the judged items is labelled to `minCoverage`: a draw left part-labelled (abandoned once it showed disagreements, then drawn again) would let the labeller choose the sample; label the rest of it", says: "untrusted: a draw is not finished" },
  { id: "author-labels", kind: "refusal", check: "people's labels", trustedWhen: "no counted label has `provenance: \"author\"` (the project's own labels, written to show the tool, not evidence about a judge; `ragjudge review` and `review --tty` write `human`, and imported labels keep their source)", says: "untrusted: author labels are not evidence" },
  { id: "too-few-labels", kind: "refusal", check: "enough labels", trustedWhen: "at least `minLabels` counted labels (default 50), with at least `minPerClass` of each answer (default 10)", says: "untrusted: too few labels" },
  { id: "kappa-undefined", kind: "refusal", check: "kappa defined", trustedWhen: "kappa and its interval are defined (labels and verdicts do not all give one and the same answer)", says: "untrusted: kappa undefined" },
  { id: "kappa-uninformative", kind: "refusal", check: "an informative interval", trustedWhen: "neither the labels nor the verdicts are all one answer (kappa is then 0 by convention with a zero-width interval: never trusted, whatever the thresholds)", says: "untrusted: kappa's interval is not informative" },
  { id: "kappa-too-low", kind: "refusal", check: "agreement", trustedWhen: "the lower bound of kappa's 95% interval is at or above `kappaLower` (default 0.6); the interval is the union of the asymptotic one and Donner & Eliasziw's goodness-of-fit one, so perfect agreement on few labels does not collapse to [1.00, 1.00]", says: "untrusted: kappa too low" },
];

/** Which labels the gate counts: a label counts only when none of these excludes it. */
export const LABEL_RULES: readonly TrustRule<LabelRuleId>[] = [
  { id: "wording", kind: "label", check: "today's question", trustedWhen: "the wording of the rubric's question the label answered (`wordingHash`: its question and case texts as the review page showed them, written by the page, `review --tty` and `labels import`) is the rubric's wording today, or the label records none (made before ragjudge recorded it, or by hand); a question edited to ask something else leaves its old labels out, whatever the judge (the offline baseline reads no prompt, so its fingerprint stays), while a comment, the keys' order or a line wrapped elsewhere changes nothing", says: "answered an earlier wording of its question" },
  { id: "frame", kind: "label", check: "a random item", trustedWhen: "the item was drawn at random, not chosen because the judge disagreed, balanced on its verdict, or picked by hand", says: "labels from disagreement, balanced or manual frames" },
  { id: "not-drawn", kind: "label", check: "drawn by ragjudge", trustedWhen: "a recorded draw (`labels/draws/<id>.json`, written by `ragjudge sample --random`) drew the item, or the label was imported with `--frame random --attest \"...\"` and the config's `trust.attested` is true (reports then say \"declared random, not drawn by ragjudge\"); a label's own `frame: \"random\"` is not enough", says: "random-frame labels outside any recorded draw" },
  { id: "draw-not-covering", kind: "label", check: "the draw covers today's items", trustedWhen: "the draw's frame holds every item this judge judged in its scope (held-out and dev alike), and its population every item this judge judged, with the same input hash, and no item it did not judge; the golden set gives its items the splits it recorded; the manifest replays from its population's own seed, never a chosen one; and a stratified draw is over the held-out split, its strata this judge's verdicts (new or changed items, a variant or split the draw left out, a question moved in or out of the held-out split since, a frame padded or cut short, a seed or strata chosen to pick the sample, or a label of the rubric naming a draw whose manifest is gone, void it for these verdicts)", says: "labels drawn by draws that do not cover the judged items" },
  { id: "draw-incomplete", kind: "label", check: "the draw is labelled", trustedWhen: "at least `minCoverage` (default 0.8) of the draw's drawn held-out items are labelled; the drawn items it leaves unlabelled (or labelled only as a second opinion) then count in kappa as disagreements with the judge, so skipping cannot choose the sample", says: "labels of draws labelled below" },
  { id: "split", kind: "label", check: "the held-out split", trustedWhen: "the item's split is the held-out split (`trust.heldout`, default `heldout`); an item with no split is dev", says: "random labels outside the held-out split" },
];

/** What the gate warns about without changing the state. */
export const WARNING_RULES: readonly TrustRule<WarningRuleId>[] = [
  { id: "skips", kind: "warning", check: "skips at random", trustedWhen: "a draw's unlabelled items are like its labelled ones in the judge's verdict (Fisher's exact test, p >= 0.05)", says: "skips are not at random" },
  { id: "declared", kind: "warning", check: "drawn, not declared", trustedWhen: "every counted label was drawn by ragjudge", says: "declared random, not drawn by ragjudge" },
  { id: "corrections", kind: "warning", check: "informative corrections", trustedWhen: "PPI has at least 30 labelled items and Rogan-Gladen at least 10 labels of each answer, with intervals of non-zero width", says: "interval not informative" },
];

/** The rule of a reason. */
export function trustRule(reason: UntrustedReason): TrustRule<UntrustedReason> {
  return TRUST_RULES.find((r) => r.id === reason)!;
}

/** The opening words of a label exclusion's phrase. */
export function labelRule(id: LabelRuleId): TrustRule<LabelRuleId> {
  return LABEL_RULES.find((r) => r.id === id)!;
}

/**
 * The gate's table for the README: every refusal in the order it is
 * checked, then which labels count, then the warnings.
 *
 * @example
 * renderTrustRulesMarkdown().split("\n")[0] // "| | check | trusted only when | otherwise the gate says |"
 */
export function renderTrustRulesMarkdown(): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const kind = { refusal: "refuses", label: "label not counted", warning: "warns" } as const;
  const rows = [...TRUST_RULES, ...LABEL_RULES, ...WARNING_RULES].map((r) => `| ${kind[r.kind]} | ${cell(r.check)} | ${cell(r.trustedWhen)} | \`${cell(r.says)} …\` |`);
  return ["| | check | trusted only when | otherwise the gate says |", "|---|---|---|---|", ...rows].join("\n");
}
