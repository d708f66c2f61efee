import { escapeHtml } from "../../report/html/escape.js";

/**
 * The page shell (the provenance note says whose labels these are: author
 * labels are never presented as human). It holds no item text at all: the script fetches items as
 * JSON and builds the DOM with `textContent`, so no item text is ever parsed
 * as HTML. The session token travels in a meta tag the script reads.
 * `next` (the calibrate command with this review's files) is shown when the
 * queue is done and after Finish, so the page says what to run next; while
 * items are still to go (the person moved past the last one, or finished
 * early) the script shows `resume` (this review's command) there instead.
 */
export function pageHtml(token: string, annotator: string, provenanceNote: string, next?: string, resume?: string): string {
  const nextLine = next ? `<p class="next">Next, measure the judge against these labels in a terminal:<br><code>${escapeHtml(next)}</code></p>` : "";
  const resumeLine = resume ? `<p class="resume" hidden><span class="to-go"></span> To resume, run this in a terminal:<br><code>${escapeHtml(resume)}</code></p>` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="ragjudge-token" content="${escapeHtml(token)}">
<title>ragjudge review · ${escapeHtml(annotator)}</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header class="bar">
  <div class="brand">ragjudge review <span class="who">as <b id="annotator">${escapeHtml(annotator)}</b> <span id="provenance">(${escapeHtml(provenanceNote)})</span></span></div>
  <div class="progress"><progress id="progress" max="1" value="0"></progress><span id="progress-text">loading…</span></div>
  <div class="where" id="where"></div>
</header>
<main id="main">
  <section id="item" class="item" hidden>
    <div class="rubric card">
      <div class="rubric-name" id="rubric-name"></div>
      <h1 id="rubric-question"></h1>
      <p id="rubric-guidance" class="guidance text" hidden></p>
      <div class="meta" id="item-meta"></div>
    </div>
    <div class="columns">
      <div class="col">
        <div class="card"><h2>Question</h2><p id="question" class="text"></p><p id="answerable" class="note-line" hidden></p></div>
        <div class="card" id="answer-card" hidden><h2 id="answer-title">Answer</h2><p id="answer" class="text"></p></div>
        <div class="card" id="sentence-card" hidden><h2>Sentence judged</h2><p id="sentence" class="text"></p></div>
        <div class="card" id="reference-card" hidden><h2>Reference answer</h2><p id="reference" class="text"></p></div>
        <div class="card" id="anchor-card" hidden><h2>Anchor</h2><p class="text"><mark class="anchor" id="anchor"></mark></p><p class="note-line" id="anchor-doc"></p></div>
      </div>
      <div class="col">
        <div class="card" id="cited-card" hidden><h2>Cited chunk</h2><div id="cited"></div></div>
        <div class="card" id="context-card" hidden><h2>Context given to the generator</h2><div id="context"></div></div>
        <div class="card" id="candidates-card" hidden><h2>Top-ranked chunks without the anchor</h2><div id="candidates"></div></div>
      </div>
    </div>
  </section>
  <section id="done" class="card done" hidden>
    <h1 id="done-title">Queue done</h1>
    <p id="done-text"></p>
    <p><button id="first-skipped" type="button">Go to the first skipped item</button> <button id="finish" type="button">Finish and stop the server</button></p>
    ${nextLine}${resumeLine}
  </section>
  <section id="finished" class="card done" hidden><h1>Finished</h1><p>Labels are saved. You can close this tab.</p>${nextLine}${resumeLine}</section>
</main>
<footer class="actions" id="actions">
  <div class="answer-row">
    <button id="yes" class="yes" type="button" title="y">Yes <kbd>y</kbd></button>
    <button id="no" class="no" type="button" title="n">No <kbd>n</kbd></button>
    <button id="skip" type="button" title="s">Skip <kbd>s</kbd></button>
    <span class="nav"><button id="prev" type="button" title="left arrow">← <kbd>←</kbd></button><button id="next" type="button" title="right arrow"><kbd>→</kbd> →</button></span>
    <input id="note" type="text" maxlength="2000" placeholder="Note (optional; Esc leaves the field)" autocomplete="off">
  </div>
  <div class="status-row"><span id="status" role="status"></span></div>
  <div class="conflict" id="conflict" role="alert" hidden>
    <span id="conflict-text"></span>
    <button id="conflict-keep" type="button"></button>
    <button id="conflict-mine" type="button"></button>
  </div>
  <div class="reveal" id="reveal-box" hidden>
    <span id="your-label"></span>
    <button id="reveal" type="button">Show the judge's verdict <kbd>v</kbd></button>
    <div id="judge"></div>
  </div>
</footer>
</body>
</html>
`;
}
