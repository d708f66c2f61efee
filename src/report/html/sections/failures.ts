import { whyWithProposal } from "../../../retrieval/diagnostics/render.js";
import { plural } from "../../format.js";
import type { ReportJson, VariantJson } from "../../schema.js";
import { stackedShares } from "../charts.js";
import { escapeHtml as esc } from "../escape.js";
import { figure, n, section, slug, table } from "../parts.js";

/** Colours of the failure kinds (seed 000's taxonomy), in its precedence order. */
const FAILURE_COLORS: Record<string, string> = {
  "anchor-ambiguity": "#0891b2",
  "reranker-demotion": "#7c3aed",
  "chunk-boundary": "#d97706",
  ranking: "#2563eb",
  "vocabulary-gap": "#dc2626",
  undecided: "#94a3b8",
};

function variantBlock(v: VariantJson): string {
  const f = v.failures;
  const kinds = f.overall.counts.map((c) => c.failure);
  const groups = [f.overall, ...f.byKind].filter((g) => g.misses > 0);
  const chart = groups.length
    ? figure(stackedShares(`Failure kinds of the misses: ${v.name}`, kinds, groups.map((g) => ({ label: g.kind, counts: g.counts.map((c) => c.count) })), `failure-kinds-${slug(v.name)}`, kinds.map((k) => FAILURE_COLORS[k] ?? "#64748b")), `misses at top ${f.k} by failure kind (${f.overall.misses} of ${f.overall.answerable} answerable questions)`)
    : `<p class="muted">No misses: every answerable question has a relevant chunk in the top ${f.k}.</p>`;
  const undecidable = f.undecidable.length ? `<p class="muted">Not decidable for this variant: ${esc(f.undecidable.map((u) => `${u.failure} (${u.reason})`).join("; "))}.</p>` : "";
  const lists = v.misses[0]?.ranks.map((r) => r.name) ?? [];
  const misses = v.misses.length
    ? `<details><summary>Misses (${esc(plural(v.misses.length, "question"))}) with their failure kinds</summary>${table(
        ["question", "kind", "anchor", ...lists.map((l) => n(l)), "failure", "fix", "why"],
        v.misses.map((m) => [m.question, m.kind, m.anchor ?? "—", ...lists.map((l) => n(m.ranks.find((r) => r.name === l)?.cell ?? "")), { text: m.failure, cls: "outcome retrieval-failure" }, m.fix ?? "—", { text: whyWithProposal(m), cls: "why" }]),
      )}</details>`
    : "";
  return `<h3>${esc(v.name)}</h3><div class="diagnosis">${esc(f.recommendation)}</div>${chart}${undecidable}${misses}`;
}

/** The misses (no relevant chunk in the top k) with their failure kinds and the fix each calls for. */
export function failuresSection(report: ReportJson): string {
  return section(
    "misses",
    "Misses and their failure kinds",
    "Where the relevant chunk went for every question whose top k holds none, classified by failure kind (vocabulary gap, chunk boundary, ranking, reranker demotion, anchor ambiguity); the most common kind decides the fix.",
    report.variants.map(variantBlock).join(""),
  );
}
