/** The item explorer's styles, appended to the report's one inline style sheet. */
export const EXPLORER_STYLE = `
[hidden] { display: none !important; }
.filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; margin: 4px 0 10px; font-size: 12.5px; color: var(--muted); }
.filters label { display: flex; flex-direction: column; gap: 2px; }
.filters label.grow { flex: 1 1 260px; }
.filters input, .filters select { font: inherit; font-size: 13px; color: var(--ink); padding: 4px 6px; border: 1px solid #cbd5e1; border-radius: 6px; background: #fff; }
.filters button, .pages button, .detail button.close { font: inherit; font-size: 13px; padding: 4px 10px; border: 1px solid #cbd5e1; border-radius: 6px; background: #f8fafc; cursor: pointer; }
.xwrap { overflow-x: auto; }
table.explorer th[data-sort] { cursor: pointer; user-select: none; }
.rj-ready table.explorer th[data-sort]::after { content: " ↕"; color: var(--faint); font-weight: 400; }
table.explorer th[aria-sort="ascending"]::after { content: " ▲"; color: var(--accent); }
table.explorer th[aria-sort="descending"]::after { content: " ▼"; color: var(--accent); }
table.explorer td .qtext { color: var(--muted); display: inline-block; max-width: 420px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: bottom; }
table.explorer button.qid { font: inherit; font-weight: 600; color: var(--accent); background: none; border: 0; padding: 0; cursor: pointer; text-decoration: underline; }
table.explorer tr.sel td { background: #e0ecff !important; }
table.explorer tr.open td { box-shadow: inset 0 -2px 0 var(--accent); }
td.v.yes { color: var(--ok); } td.v.no { color: var(--bad); font-weight: 600; } td.v.error { color: var(--warn); } td.v { text-align: center; }
.pages { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 4px 0 10px; font-size: 13px; }
kbd { font: 11px ui-monospace, monospace; border: 1px solid #cbd5e1; border-bottom-width: 2px; border-radius: 4px; padding: 0 4px; background: #fff; }
.detail { border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 8px; padding: 12px 16px; margin: 10px 0; background: #fff; outline: none; }
.detail .dhead { display: flex; justify-content: space-between; align-items: start; gap: 12px; }
.detail h3 { margin: 0 0 4px; }
.detail .dsec { margin: 12px 0; }
.detail .dsec h4 { margin: 0 0 4px; }
.detail .text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.detail .evidence { background: #fffbea; border-left: 3px solid #e0b400; padding: 4px 8px; }
.detail button.cite { font: inherit; font-size: .92em; background: #fff2c6; border: 0; border-bottom: 2px solid #e0b400; border-radius: 3px; padding: 0 2px; cursor: pointer; }
.detail button.cite.unknown { background: var(--bad-bg); border-bottom-color: var(--bad); }
.detail .chunk { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
.detail .chunk.cited { border-color: #e0b400; background: #fffdf3; }
.detail .chunk.flash { box-shadow: 0 0 0 3px #facc15; }
.detail .chunk-head { display: flex; flex-wrap: wrap; gap: 8px; font-size: 12.5px; margin-bottom: 3px; }
.detail .chunk-head .cid { font-family: ui-monospace, monospace; font-weight: 600; }
.detail mark.anchor { background: #cfe8ff; box-shadow: inset 0 -2px 0 #4b93d8; border-radius: 3px; padding: 0 1px; }
.badge.anchor { background: #dbeafe; color: #1e40af; } .badge.cited { background: #fef3c7; color: #92400e; }
.badge.outcome.retrieval-failure, .badge.outcome.generation-failure, .badge.outcome.invented-answer { background: var(--bad-bg); }
.badge.outcome.ok, .badge.outcome.correct-not-found { background: var(--ok-bg); }
.badge.outcome.unjudged, .badge.outcome.ok-without-retrieval { background: var(--warn-bg); }
.detail table.dtable { font-size: 12.5px; }
.detail pre { background: #0f172a; color: #e2e8f0; padding: 8px 10px; border-radius: 6px; overflow-x: auto; }
.detail pre code { font-size: 12px; }
`;
