/** The page's style sheet, served as `/app.css` (the CSP allows no inline style). */
export const PAGE_CSS = String.raw`
:root { --ink:#1d232b; --muted:#5d6875; --line:#d9dee4; --bg:#f5f6f8; --card:#fff; --yes:#1f7a4d; --no:#b3261e; --cite:#fff2c6; --cite-line:#e0b400; --anchor:#cfe8ff; --bad:#ffd9d6; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { margin: 0; padding: 0; background: var(--bg); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", sans-serif; }
.bar { position: sticky; top: 0; z-index: 2; display: flex; gap: 1.5rem; align-items: center; padding: .55rem 1.2rem; background: #222a33; color: #f3f5f7; }
.brand { font-weight: 600; }
.who { font-weight: 400; color: #b9c3cd; margin-left: .4rem; }
.who b { color: #fff; }
.progress { display: flex; align-items: center; gap: .6rem; flex: 1; }
.progress progress { width: 14rem; height: .7rem; }
.where { color: #b9c3cd; font-variant-numeric: tabular-nums; }
main { padding: 1rem 1.2rem 11rem; max-width: 1400px; margin: 0 auto; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .8rem 1rem; margin-bottom: .8rem; }
.card h2 { margin: 0 0 .35rem; font-size: .78rem; letter-spacing: .04em; text-transform: uppercase; color: var(--muted); }
.rubric { border-left: 5px solid #3d6fb6; }
.rubric h1 { margin: .1rem 0 .3rem; font-size: 1.2rem; line-height: 1.35; }
.guidance { font-size: .88rem; color: #33404d; background: #f2f5fa; border-radius: 6px; padding: .4rem .6rem; margin: .2rem 0 .4rem; }
.rubric-name { font-size: .8rem; color: var(--muted); }
.meta { font-size: .8rem; color: var(--muted); }
.columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.15fr); gap: .8rem; }
@media (max-width: 900px) { .columns { grid-template-columns: 1fr; } }
.text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.note-line { margin: .35rem 0 0; font-size: .85rem; color: var(--muted); }
.marker { background: var(--cite); border-bottom: 2px solid var(--cite-line); padding: 0 .1rem; border-radius: 3px; font-size: .9em; }
.marker.unknown { background: var(--bad); border-bottom-color: var(--no); }
mark.anchor { background: var(--anchor); color: inherit; border-radius: 3px; padding: 0 .1rem; box-shadow: inset 0 -2px 0 #4b93d8; }
.chunk { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .7rem; margin: .5rem 0; }
.chunk.cited { border-color: var(--cite-line); background: #fffbea; box-shadow: inset 4px 0 0 var(--cite-line); }
.chunk-head { display: flex; flex-wrap: wrap; gap: .4rem; align-items: baseline; font-size: .82rem; color: var(--muted); margin-bottom: .2rem; }
.chunk-id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--ink); }
.badge { font-size: .72rem; border-radius: 999px; padding: 0 .45rem; border: 1px solid var(--line); }
.badge.cited { background: var(--cite); border-color: var(--cite-line); color: #5b4a00; }
.badge.anchor { background: var(--anchor); border-color: #4b93d8; color: #0d3b66; }
.actions { position: fixed; left: 0; right: 0; bottom: 0; z-index: 2; background: #fff; border-top: 1px solid var(--line); padding: .6rem 1.2rem; box-shadow: 0 -2px 8px rgba(0,0,0,.05); }
.answer-row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; max-width: 1400px; margin: 0 auto; }
button { font: inherit; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: .35rem .8rem; cursor: pointer; }
button:hover:not(:disabled) { background: #eef1f4; }
button:disabled { opacity: .5; cursor: default; }
button.yes { background: var(--yes); border-color: var(--yes); color: #fff; font-weight: 600; min-width: 6rem; }
button.no { background: var(--no); border-color: var(--no); color: #fff; font-weight: 600; min-width: 6rem; }
button.yes:hover:not(:disabled) { background: #186640; }
button.no:hover:not(:disabled) { background: #97201a; }
button.chosen { outline: 3px solid #222a33; outline-offset: 2px; }
kbd { font: .75em ui-monospace, monospace; border: 1px solid rgba(0,0,0,.25); border-radius: 3px; padding: 0 .25rem; background: rgba(255,255,255,.25); }
.nav { display: inline-flex; gap: .3rem; }
#note { flex: 1; min-width: 14rem; font: inherit; padding: .35rem .6rem; border: 1px solid var(--line); border-radius: 6px; }
.status-row { max-width: 1400px; margin: .3rem auto 0; min-height: 1.3rem; font-size: .88rem; color: var(--muted); }
.status-row .error { color: var(--no); font-weight: 600; }
.reveal { max-width: 1400px; margin: .3rem auto 0; font-size: .9rem; display: flex; gap: .8rem; align-items: baseline; flex-wrap: wrap; }
.verdict { display: inline-block; margin-right: .6rem; }
.verdict b.yes { color: var(--yes); } .verdict b.no { color: var(--no); } .verdict b.error { color: #8a5a00; }
.reason { color: var(--ink); }
.done { text-align: center; padding: 2rem; }
.done .next code, .done .resume code { display: inline-block; margin-top: .3rem; padding: .2rem .4rem; background: #f3f3f3; border-radius: 4px; user-select: all; overflow-wrap: anywhere; }
.conflict { max-width: 1400px; margin: .4rem auto 0; padding: .5rem .7rem; border: 1px solid #e0b400; background: #fffbea; border-radius: 6px; display: flex; gap: .6rem; align-items: baseline; flex-wrap: wrap; font-size: .92rem; }
`;
