import { countedLabels, type LabelledItem } from "./labels.js";

/**
 * What a calibration rests on: whose labels. A judge checked against the
 * project's own example labels (`author`) or against an imported data set
 * has not been checked against the team's people, and every output says so
 * instead of calling those labels human.
 */
export interface LabelBasis {
  /** Items whose counted labels are all `provenance: human`. */
  human: number;
  /** Items whose counted labels are all `provenance: author` (the project's own; not evidence about any judge). */
  author: number;
  /** Items whose counted labels are all `provenance: import`. */
  import: number;
  /** Items whose counted labels mix provenances. */
  mixed: number;
  /** The `source` of every imported label counted, sorted. */
  sources: string[];
}

/**
 * Counts items by the provenance of the labels that decide them (each
 * annotator's effective label and any adjudication label).
 *
 * @example
 * labelBasis(pairing.gate.map((p) => p.labelled)) // { human: 0, author: 52, import: 0, mixed: 0, sources: [] }
 */
export function labelBasis(items: readonly LabelledItem[]): LabelBasis {
  const out: LabelBasis = { human: 0, author: 0, import: 0, mixed: 0, sources: [] };
  const sources = new Set<string>();
  for (const item of items) {
    const counted = countedLabels(item);
    const kinds = new Set(counted.map((l) => l.value.provenance));
    for (const l of counted) if (l.value.source !== undefined && l.value.provenance === "import") sources.add(l.value.source);
    if (kinds.size === 1) out[[...kinds][0]!]++;
    else if (kinds.size > 1) out.mixed++;
  }
  out.sources = [...sources].sort();
  return out;
}

/**
 * Gate items with an author label among the labels that decide them or
 * among anyone's labels on them (alone or beside others), and the files
 * those labels are in: the gate refuses to trust figures that rest on any of
 * them, and names every file to move out at once.
 *
 * @example
 * authorLabels(pairing.gate) // { items: 0, files: [] } for labels given through ragjudge review
 */
export function authorLabels(items: readonly { labelled: LabelledItem; people?: LabelledItem }[]): { items: number; files: string[] } {
  let n = 0;
  const files = new Set<string>();
  for (const item of items) {
    const authored = [...countedLabels(item.labelled), ...(item.people ? countedLabels(item.people) : [])].filter((l) => l.value.provenance === "author");
    if (!authored.length) continue;
    n++;
    for (const l of authored) files.add(l.file);
  }
  return { items: n, files: [...files].sort() };
}

const AUTHOR_NOTE = "the project's own labels, not human evidence";

/**
 * The labels named for people, with their count: "80 human labels",
 * "52 author labels (the project's own labels, not human evidence)",
 * "300 imported labels (source attribution-dev)", or a breakdown when
 * provenances mix. `author` labels are never called human.
 *
 * @example
 * describeBasis(80, { human: 0, author: 80, import: 0, mixed: 0, sources: [] })
 * // "80 author labels (the project's own labels, not human evidence)"
 */
export function describeBasis(n: number, b: LabelBasis): string {
  const src = b.sources.length ? ` (source ${b.sources.join(", ")})` : "";
  const parts: [number, string][] = [
    [b.human, "human"],
    [b.author, `author (${AUTHOR_NOTE})`],
    [b.import, `imported${src}`],
    [b.mixed, "of mixed provenance"],
  ];
  const present = parts.filter(([c]) => c > 0);
  if (present.length === 0) return `${n} labels`;
  if (present.length === 1 && present[0]![0] === n) {
    if (b.author === n) return `${n} author labels (${AUTHOR_NOTE})`;
    if (b.import === n) return `${n} imported labels${src}`;
    if (b.human === n) return `${n} human labels`;
  }
  return `${n} labels: ${present.map(([c, what]) => `${c} ${what}`).join(", ")}`;
}

/**
 * The kind of labels as a noun phrase for headings: "human labels",
 * "author labels (the project's own labels, not human evidence)",
 * "imported labels (source X)", or "labels of mixed provenance".
 */
export function basisNoun(b: LabelBasis): string {
  const kinds = (["human", "author", "import", "mixed"] as const).filter((k) => b[k] > 0);
  if (kinds.length === 0) return "labels";
  if (kinds.length === 1 && kinds[0] === "human") return "human labels";
  if (kinds.length === 1 && kinds[0] === "author") return `author labels (${AUTHOR_NOTE})`;
  if (kinds.length === 1 && kinds[0] === "import") return `imported labels${b.sources.length ? ` (source ${b.sources.join(", ")})` : ""}`;
  const names = { human: "human", author: "author", import: "imported", mixed: "mixed" } as const;
  const note = b.author > 0 || b.mixed > 0 ? "; author labels are not human evidence" : "";
  return `labels of mixed provenance (${kinds.map((k) => names[k]).join(", ")}${note})`;
}
