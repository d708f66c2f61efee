/** The report page's only style sheet, inlined in a <style> element (no external request when viewed). */
export const STYLE = `
:root { --ink:#0f172a; --muted:#475569; --faint:#94a3b8; --line:#e2e8f0; --bg:#f8fafc; --card:#fff;
  --ok:#15803d; --ok-bg:#dcfce7; --warn:#b45309; --warn-bg:#fef3c7; --bad:#b91c1c; --bad-bg:#fee2e2; --accent:#1d4ed8; }
* { box-sizing: border-box; }
html { background: var(--bg); }
body { margin: 0; color: var(--ink); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", sans-serif; }
header.top { background: #0f172a; color: #e2e8f0; padding: 20px 32px 18px; }
header.top h1 { margin: 0 0 4px; font-size: 22px; font-weight: 650; color: #fff; letter-spacing: -0.01em; }
header.top h1 .brand { color: #93c5fd; font-weight: 600; }
header.top .meta { color: #cbd5e1; font-size: 13px; }
header.top .meta code { color: #e2e8f0; }
nav.toc { display: flex; flex-wrap: wrap; gap: 6px 18px; padding: 10px 32px; background: #fff; border-bottom: 1px solid var(--line); font-size: 13px; position: sticky; top: 0; z-index: 1; }
nav.toc a { color: var(--accent); text-decoration: none; }
nav.toc a:hover { text-decoration: underline; }
main { max-width: 1200px; margin: 0 auto; padding: 20px 32px 40px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 18px 22px; margin: 0 0 20px; }
section > h2 { margin: 0 0 4px; font-size: 18px; font-weight: 650; }
section > p.lede { margin: 0 0 14px; color: var(--muted); }
h3 { font-size: 15px; margin: 18px 0 8px; }
h4 { font-size: 13px; margin: 12px 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 14px; margin: 0 0 20px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; }
.card h3 { margin: 0 0 6px; font-size: 14px; }
.card .big { font-size: 24px; font-weight: 650; letter-spacing: -0.01em; }
.card .sub { color: var(--muted); font-size: 12.5px; }
.kv { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; font-size: 13px; }
.kv dt { color: var(--muted); }
.kv dd { margin: 0; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; vertical-align: 1px; white-space: nowrap; }
.badge.trusted, .badge.pass { background: var(--ok-bg); color: var(--ok); }
.badge.untrusted { background: var(--warn-bg); color: var(--warn); }
.badge.fail { background: var(--bad-bg); color: var(--bad); }
.badge.partial { background: var(--warn-bg); color: var(--warn); white-space: normal; }
section.verdict ul.verdicts { margin: 6px 0 0; padding-left: 18px; font-size: 15px; }
section.verdict li { margin: 4px 0; }
.note { background: var(--warn-bg); border-left: 4px solid #f59e0b; padding: 8px 12px; border-radius: 6px; margin: 10px 0; color: #78350f; }
.diagnosis { background: #eff6ff; border-left: 4px solid var(--accent); padding: 8px 12px; border-radius: 6px; margin: 10px 0; }
.muted { color: var(--muted); }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 8px 24px; align-items: start; }
figure { margin: 6px 0 12px; overflow-x: auto; }
figure figcaption { font-size: 12.5px; color: var(--muted); margin-bottom: 4px; }
svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { font-weight: 600; color: var(--muted); background: #f1f5f9; white-space: nowrap; }
td.n, th.n { text-align: right; white-space: nowrap; }
tbody tr:nth-child(even) td { background: #fcfdfe; }
td.why { color: var(--muted); min-width: 260px; }
details { margin: 8px 0; }
details > summary { cursor: pointer; color: var(--accent); font-weight: 600; }
.rubric { border-top: 1px solid var(--line); padding-top: 10px; margin-top: 12px; }
.rubric:first-of-type { border-top: 0; }
.outcome { white-space: nowrap; }
.outcome.ok, .outcome.correct-not-found { color: var(--ok); }
.outcome.retrieval-failure, .outcome.generation-failure, .outcome.invented-answer { color: var(--bad); font-weight: 600; }
.outcome.ok-without-retrieval, .outcome.unjudged { color: var(--warn); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
footer { color: var(--muted); font-size: 12px; text-align: center; padding: 0 0 30px; }
@media print { nav.toc { position: static; } section { break-inside: avoid; } }
`;
