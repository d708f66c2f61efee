import { num } from "../../format.js";
import type { ReportJson } from "../../schema.js";
import { escapeHtml as esc } from "../escape.js";
import { n, section, table } from "../parts.js";

/**
 * What the evaluation ran on, so it can be reproduced and compared: input
 * files with their SHA-256, judge fingerprints, the gate's floors, input
 * warnings, and the files of the evaluation folder.
 */
export function reproduceSection(report: ReportJson): string {
  const i = report.inputs;
  const files = table(["input", "path", "sha256"], [
    ["config", i.config.path, { text: i.config.sha256.slice(0, 16), cls: "n" }],
    ["golden set", i.golden.path, { text: i.golden.sha256.slice(0, 16), cls: "n" }],
    ...i.variants.flatMap((v) => [
      [`${v.name} output`, v.output.path, { text: v.output.sha256.slice(0, 16), cls: "n" }],
      v.chunks ? [`${v.name} chunks`, v.chunks.path, { text: v.chunks.sha256.slice(0, 16), cls: "n" }] : [`${v.name} chunks`, "none: passages given as text in the output", { text: "", cls: "n" }],
    ]),
    ...i.rubrics.map((r) => [`rubric ${r.name}`, r.file.path, { text: r.file.sha256.slice(0, 16), cls: "n" }]),
    ["labels", `${i.labels.dir} (${i.labels.files.length} files)`, { text: i.labels.hash.slice(0, 16), cls: "n" }],
  ]);
  const fps = table(["rubric", "judge", "fingerprint", "model"], report.rubrics.map((r) => [r.rubric, r.judge, { text: r.fingerprint, cls: "" }, r.model ?? "—"]));
  const floors = report.gate.floors.length
    ? table(["variant", "floor", n("value"), "result"], report.gate.floors.map((f) => [f.variant, `${f.measure} ≥ ${f.min}`, n(num(f.value, 4)), { text: "", html: f.passed ? `<span class="badge pass">ok</span>` : `<span class="badge fail">missed</span>` }]))
    : `<p class="muted">No floors configured.</p>`;
  const warnings = report.warnings.length
    ? `<details><summary>${report.warnings.length} input warnings</summary><ul>${report.warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul></details>`
    : "";
  return section(
    "reproduce",
    "Inputs, fingerprints and files",
    `ragjudge ${report.ragjudgeVersion}; config ${report.config.file}; k = ${report.config.k.join(", ")}, pool depth ${report.config.poolDepth}; run took ${(report.durationMs / 1000).toFixed(1)} s.`,
    `<h3>Floors</h3>${floors}<h3>Inputs</h3>${files}<h3>Judge fingerprints</h3>${fps}${warnings}`
      + `<details><summary>Files of this evaluation folder</summary><ul>${report.files.map((f) => `<li><code>${esc(f)}</code></li>`).join("")}</ul></details>`,
  );
}
