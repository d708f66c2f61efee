/**
 * The page's script, served as `/app.js`. Plain DOM code with no build step.
 * Every piece of item text reaches the DOM through `textContent` or
 * `createTextNode` (never `innerHTML`), so answers and sources that contain
 * HTML or script show as text. Writes carry the session token and the item's
 * input hash, and the page only moves on once the server has confirmed the
 * label is on disk.
 *
 * Kept as a string so the package ships it without a bundler; a unit test
 * parses it, the browser tests run it.
 */
export const CLIENT_JS = String.raw`"use strict";
(function () {
  var token = document.querySelector('meta[name="ragjudge-token"]').getAttribute("content");
  var $ = function (id) { return document.getElementById(id); };
  var state = null;   // { total, counts, resumeAt }
  var index = 0;
  var view = null;
  var busy = false;
  var finished = false;
  var flash = "";     // message to show once the next item is on screen ("Saved ...")

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function show(id, on) { $(id).hidden = !on; }

  function setStatus(text, isError) {
    var s = $("status");
    clear(s);
    var span = el("span", isError ? "error" : "", text);
    s.appendChild(span);
  }

  function api(method, path, body) {
    var init = { method: method, headers: { "x-ragjudge-token": token }, cache: "no-store", credentials: "same-origin" };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (!res.ok) {
          var err = new Error((data && data.error) || ("HTTP " + res.status));
          err.status = res.status;
          err.conflict = data && data.conflict;
          throw err;
        }
        return data;
      });
    });
  }

  // Segments are { text, mark?, refs? }: rendered as text nodes, marked runs in spans.
  function renderSegments(node, segments) {
    clear(node);
    segments.forEach(function (s) {
      if (!s.mark) { node.appendChild(document.createTextNode(s.text)); return; }
      var span;
      if (s.mark === "anchor") span = el("mark", "anchor", s.text);
      else {
        span = el("span", s.mark === "cite" ? "marker" : "marker unknown", s.text);
        span.setAttribute("title", (s.mark === "cite" ? "cites " : "names no chunk of the context: ") + (s.refs || []).join(", "));
      }
      node.appendChild(span);
    });
  }

  function renderChunk(c) {
    var box = el("div", c.cited ? "chunk cited" : "chunk");
    var head = el("div", "chunk-head");
    if (c.position > 0) head.appendChild(el("span", "", "[" + c.position + "]"));
    head.appendChild(el("span", "chunk-id", c.id));
    if (c.heading) head.appendChild(el("span", "", c.heading));
    if (c.position === 0) head.appendChild(el("span", "badge", "not in the context"));  // undefined: unknown, no badge
    if (c.cited) head.appendChild(el("span", "badge cited", "cited"));
    if (c.hasAnchor) head.appendChild(el("span", "badge anchor", "contains the anchor"));
    box.appendChild(head);
    var body = el("p", "text");
    renderSegments(body, c.text);
    box.appendChild(body);
    return box;
  }

  function renderChunks(id, chunks) {
    var node = $(id);
    clear(node);
    (chunks || []).forEach(function (c) { node.appendChild(renderChunk(c)); });
  }

  function renderProgress() {
    var c = state.counts;
    var p = $("progress");
    p.max = Math.max(1, c.total);
    p.value = c.labelled + c.skipped;
    $("progress-text").textContent = c.labelled + " labelled, " + c.skipped + " skipped, " + c.open + " to go (of " + c.total + ")";
    $("where").textContent = index < state.total ? "item " + (index + 1) + " of " + state.total : "";
  }

  function renderItem(v) {
    view = v;
    pending = null;
    show("conflict", false);
    show("done", false);
    show("item", true);
    $("rubric-name").textContent = "Rubric: " + v.item.rubric + (v.item.unit !== "answer" ? "  ·  unit " + v.item.unit : "");
    $("rubric-question").textContent = v.rubricQuestion;
    $("rubric-guidance").textContent = v.rubricGuidance || "";
    show("rubric-guidance", !!v.rubricGuidance);
    var meta = [v.item.variant, v.item.question];
    if (v.kind) meta.push("kind: " + v.kind);
    if (v.tags && v.tags.length) meta.push("tags: " + v.tags.join(", "));
    $("item-meta").textContent = meta.join("  ·  ");
    $("question").textContent = v.questionText;
    if (v.answerable === undefined) show("answerable", false);
    else {
      $("answerable").textContent = v.answerable ? "The golden set says the documents hold an answer." : "The golden set says the documents hold NO answer: the right output is \"not found\".";
      show("answerable", true);
    }
    // A claim of claim-level faithfulness is labelled on its own, against the same sources.
    $("answer-title").textContent = v.claim ? "Claim " + v.claim + " of the answer: label this claim alone" : "Answer";
    show("answer-card", !!v.answer);
    if (v.answer) renderSegments($("answer"), v.answer);
    show("sentence-card", !!v.sentence);
    if (v.sentence) renderSegments($("sentence"), v.sentence);
    show("reference-card", v.reference !== undefined);
    $("reference").textContent = v.reference !== undefined ? v.reference : "";
    show("anchor-card", !!v.anchor);
    $("anchor").textContent = v.anchor ? v.anchor.text : "";
    $("anchor-doc").textContent = v.anchor ? "in document " + v.anchor.doc : "";
    show("cited-card", !!v.cited);
    renderChunks("cited", v.cited ? [v.cited] : []);
    show("context-card", !!v.context);
    renderChunks("context", v.context);
    show("candidates-card", !!v.candidates);
    renderChunks("candidates", v.candidates);

    $("note").value = v.label && v.label.note ? v.label.note : "";
    $("yes").classList.toggle("chosen", !!v.label && v.label.label === "yes");
    $("no").classList.toggle("chosen", !!v.label && v.label.label === "no");
    clear($("judge"));
    if (v.label) {
      $("your-label").textContent = "Your label: " + v.label.label + (v.label.note ? " (\u201c" + v.label.note + "\u201d)" : "") + ". Answer again to replace it.";
      show("reveal-box", true);
      show("reveal", true);
    } else {
      show("reveal-box", false);
    }
    setStatus([flash, v.skipped ? "You skipped this item earlier." : ""].filter(Boolean).join(" "));
    flash = "";
    setButtons(true);
    renderProgress();
    window.scrollTo(0, 0);
  }

  function renderDone() {
    view = null;
    show("item", false);
    show("reveal-box", false);
    show("done", true);
    var c = state.counts;
    $("done-title").textContent = c.open > 0 ? "End of the queue" : "Queue done";
    $("done-text").textContent = c.labelled + " of " + c.total + " items labelled, " + c.skipped + " skipped" + (c.open > 0 ? ", " + c.open + " still to go" : "") + ". Use \u2190 to go back to any item.";
    renderNextSteps();
    $("first-skipped").hidden = c.skipped === 0;
    setButtons(false);
    $("prev").disabled = state.total === 0;
    setStatus(flash);
    flash = "";
    renderProgress();
  }

  // The calibrate command once no item is open; while some are, how many and the command that resumes.
  function renderNextSteps() {
    var open = state.counts.open;
    document.querySelectorAll(".next").forEach(function (e) { e.hidden = open > 0; });
    document.querySelectorAll(".resume").forEach(function (e) { e.hidden = open === 0; });
    document.querySelectorAll(".resume .to-go").forEach(function (e) { e.textContent = open + (open === 1 ? " item is" : " items are") + " still to go."; });
  }

  function setButtons(on) {
    ["yes", "no", "skip", "prev", "next"].forEach(function (id) { $(id).disabled = !on; });
    if (on) { $("prev").disabled = index <= 0; }
  }

  // Each navigation gets a number; a response that arrives after a newer
  // navigation started is dropped, so fast arrow presses can never show one
  // item's content under another item's position.
  var navigation = 0;
  function go(i) {
    if (finished) return Promise.resolve();
    var mine = ++navigation;
    index = Math.max(0, Math.min(i, state.total));
    if (index >= state.total) { renderDone(); return Promise.resolve(); }
    setButtons(false);
    return api("GET", "/api/item?i=" + index).then(function (item) {
      if (mine === navigation) renderItem(item);
    }, function (e) {
      if (mine !== navigation) return;
      setStatus("Could not load item " + (index + 1) + ": " + e.message, true);
      setButtons(true);
    });
  }

  function refreshState() {
    return api("GET", "/api/state").then(function (s) { state = s; });
  }

  function write(path, body, done, failed) {
    if (busy || !view) return;
    busy = true;
    setButtons(false);
    show("conflict", false);
    setStatus("Saving\u2026");
    api("POST", path, body).then(function (r) {
      busy = false;
      state = r.state;
      done(r);
      go(r.next);
    }, function (e) {
      busy = false;
      setButtons(true);
      if (failed && failed(e)) return;
      setStatus("NOT saved: " + e.message + ". Your answer was not recorded; try again.", true);
    });
  }

  // The label changed since this page showed the item (another tab, another
  // process): nothing was saved; the person keeps that label or saves theirs.
  var pending = null;  // { label, note, seen } of the answer waiting for a choice
  function showConflict(label, note, c) {
    pending = { label: label, note: note, seen: c.time };
    $("conflict-text").textContent = "Not saved: while this page showed item " + (view.index + 1) + ", it was labelled \u201c" + c.label + "\u201d" + (c.note ? " (\u201c" + c.note + "\u201d)" : "") + " at " + c.time + " in another tab or window.";
    $("conflict-keep").textContent = "Keep \u201c" + c.label + "\u201d";
    $("conflict-mine").textContent = "Save my \u201c" + label + "\u201d instead";
    show("conflict", true);
    setStatus("");
  }

  function answer(label, seenOverride) {
    var note = $("note").value;
    var seen = seenOverride !== undefined ? seenOverride : (view.label ? view.label.time : null);
    write("/api/label", { index: view.index, inputHash: view.inputHash, label: label, note: note, seen: seen }, function (r) {
      flash = "Saved \u201c" + label + "\u201d for item " + (view.index + 1) + "." + (r && r.note ? " Note: " + r.note + "." : "");
    }, function (e) {
      if (e.status !== 409) return false;
      if (e.conflict) showConflict(label, note, e.conflict);
      else { setStatus("NOT saved: " + e.message, true); go(index); }
      return true;
    });
  }

  function skip() {
    write("/api/skip", { index: view.index, inputHash: view.inputHash }, function () {
      flash = "Skipped item " + (view.index + 1) + ".";
    });
  }

  function reveal() {
    if (!view || !view.label) return;
    api("GET", "/api/reveal?i=" + view.index).then(function (r) {
      var box = $("judge");
      clear(box);
      show("reveal", false);
      if (!r.judgments.length) box.appendChild(el("span", "", "No judge verdict for this item and input hash in the judgments file."));
      r.judgments.forEach(function (j) {
        var line = el("div", "verdict");
        line.appendChild(document.createTextNode("Judge (" + j.judgeWords + (j.model ? " " + j.model : "") + (j.repeat ? ", repeat " + j.repeat : "") + "): "));
        line.appendChild(el("b", j.verdict, j.verdict));
        if (j.error) line.appendChild(document.createTextNode(" [" + j.error + "]"));
        if (typeof j.pYes === "number") line.appendChild(document.createTextNode(" (P(yes) " + j.pYes.toFixed(2) + ")"));
        line.appendChild(document.createTextNode(" \u2014 "));
        line.appendChild(el("span", "reason", j.reason));
        box.appendChild(line);
      });
      var frame = "Sampled by frame \u201c" + r.frame + "\u201d" + (r.stratum ? ", stratum " + r.stratum : "") + (r.inclusionProbability ? ", inclusion probability " + r.inclusionProbability.toPrecision(3) : "") + ".";
      box.appendChild(el("div", "note-line", frame));
    }, function (e) { setStatus(e.message, true); });
  }

  function finish() {
    api("POST", "/api/finish", {}).then(function (r) {
      if (r && r.state) state = r.state;
      renderNextSteps();
      finished = true;
      show("done", false);
      show("item", false);
      show("finished", true);
      show("actions", false);
    }, function (e) { setStatus(e.message, true); });
  }

  $("yes").addEventListener("click", function () { answer("yes"); });
  $("no").addEventListener("click", function () { answer("no"); });
  $("skip").addEventListener("click", skip);
  $("prev").addEventListener("click", function () { if (!busy) go(index - 1); });
  $("next").addEventListener("click", function () { if (!busy) go(index + 1); });
  $("reveal").addEventListener("click", reveal);
  $("finish").addEventListener("click", finish);
  $("conflict-keep").addEventListener("click", function () {
    pending = null;
    show("conflict", false);
    flash = "Kept the other label.";
    refreshState().then(function () { return go(index); }, function (e) { setStatus(e.message, true); });
  });
  $("conflict-mine").addEventListener("click", function () {
    if (!pending || !view) return;
    var p = pending;
    pending = null;
    $("note").value = p.note;
    answer(p.label, p.seen);
  });
  $("first-skipped").addEventListener("click", function () { go(state.firstSkipped === undefined ? 0 : state.firstSkipped); });

  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.isComposing) return;
    var t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA")) {
      if (ev.key === "Escape") t.blur();
      return;
    }
    if (busy || finished) return;
    var k = ev.key;
    if (k === "y" || k === "Y") { if (view) answer("yes"); }
    else if (k === "n" || k === "N") { if (view) answer("no"); }
    else if (k === "s" || k === "S") { if (view) skip(); }
    else if (k === "v" || k === "V") reveal();
    else if (k === "ArrowLeft") go(index - 1);
    else if (k === "ArrowRight") go(index + 1);
    else return;
    ev.preventDefault();
  });

  refreshState().then(function () { return go(state.resumeAt); }, function (e) {
    setStatus("Could not reach the review server: " + e.message, true);
  });
  window.ragjudgeReview = { get index() { return index; }, get busy() { return busy; } };
})();
`;
