import { MEASURES } from "./registry.js";

function wrap(text: string, width: number, indent: string): string {
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : indent + l)).join("\n");
}

/**
 * The measure list printed by `ragjudge retrieval --help` and
 * `--list-measures`, generated from the registry so it cannot drift from the
 * code: each measure's IR name, trec_eval name, meaning and source.
 */
export function measureHelp(width = 100): string {
  const indent = " ".repeat(27);
  const rows = MEASURES.map((m) => {
    const trec = m.trecName === undefined ? "-" : m.cutoff ? `${m.trecName}_k` : m.trecName;
    const head = `  ${m.name.padEnd(11)} ${trec.padEnd(12)} `;
    return `${head}${wrap(`${m.explanation} Source: ${m.source}.`, width - indent.length, indent)}`;
  });
  return [
    "Measures (name as IR people write it, trec_eval's name, meaning, source):",
    ...rows,
    "",
    "Names are case-insensitive; trec_eval's names (P_5, recall_10, ndcg_cut_10, success_1, recip_rank,",
    "map, Rprec) and its -m form (-m P.1,5,10) are accepted too, as are MRR, MAP, Recall@k, Success@k;",
    "-m all asks for every measure above at every k.",
  ].join("\n");
}
