import { EXPLORER_DETAIL_JS } from "./explorer-detail-client.js";

/**
 * The item explorer's script, inlined in report.html (allowed by the page's
 * Content-Security-Policy through its SHA-256, nothing else may run). Plain
 * DOM code with no dependency and no request: it reads the two JSON blocks
 * the page carries (src/report/html/sections/explorer.ts), filters, sorts and
 * pages the rows, keeps the view in the address's fragment
 * (`#explorer?variant=…&outcome=…`), and builds an item's detail on demand.
 * Every piece of item text reaches the DOM through `textContent` or
 * `createTextNode`, never `innerHTML`, so answers, chunks and reasons that
 * hold HTML or script show as text.
 *
 * Kept as a string so the package ships it without a bundler; the browser
 * tests run it. The detail panel's part lives in explorer-detail-client.ts
 * and is spliced in, so both share one scope.
 */
export const EXPLORER_JS = String.raw`"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var rowsNode = $("rj-rows");
  if (!rowsNode) return;
  var R = JSON.parse(rowsNode.textContent);
  var CHUNKS = null; // chunk text, parsed when a row is first opened
  var SHARDS = {};   // evidence blocks, each parsed when one of its rows is first opened
  var PAGE = 50;
  var SEVERITY = ["retrieval-failure", "generation-failure", "invented-answer", "unjudged", "ok-without-retrieval", "ok", "correct-not-found"];
  var LABELS = { "ok": "ok", "retrieval-failure": "retrieval failure", "generation-failure": "generation failure", "ok-without-retrieval": "ok w/o relevant chunk", "correct-not-found": "correct not found", "invented-answer": "invented answer", "unjudged": "unjudged" };
  var VERDICT = { y: "yes", n: "no", e: "error" };
  var items = R.items;
  var hay = new Array(items.length);
  var keys = new Array(items.length);
  var sev = new Array(items.length);
  for (var i = 0; i < items.length; i++) {
    var it = items[i];
    keys[i] = R.variants[it[0]] + "/" + it[1];
    hay[i] = (it[1] + " " + it[2] + " " + it[3] + " " + it[4].join(" ") + " " + it[8] + " " + it[9] + " " + it[10] + " " + R.variants[it[0]]).toLowerCase();
    sev[i] = SEVERITY.indexOf(R.outcomes[it[5]]);
  }

  var S = blank();
  var view = [];   // indexes of the filtered, sorted items
  var sel = -1;    // position in view of the selected row
  var opened = -1; // item index shown in the detail panel

  function blank() { return { variant: "", outcome: "", kind: "", tag: "", q: "", r: {}, sort: "", dir: 1, page: 0 }; }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(n) { while (n.firstChild) n.removeChild(n.firstChild); }

  // ---- state <-> address fragment ----
  function readHash() {
    var h = location.hash;
    var s = blank();
    var open = null;
    if (h.indexOf("#explorer?") === 0) {
      var p = new URLSearchParams(h.slice(10));
      p.forEach(function (v, k) {
        if (k === "variant" || k === "outcome" || k === "kind" || k === "tag" || k === "q" || k === "sort") s[k] = v;
        else if (k === "dir") s.dir = v === "desc" ? -1 : 1;
        else if (k === "page") s.page = Math.max(0, parseInt(v, 10) || 0);
        else if (k === "open") open = v;
        else if (k.indexOf("r.") === 0) s.r[k.slice(2)] = v;
      });
    }
    return { s: s, open: open };
  }
  function writeHash() {
    var p = new URLSearchParams();
    ["variant", "outcome", "kind", "tag", "q", "sort"].forEach(function (k) { if (S[k]) p.set(k, S[k]); });
    if (S.sort && S.dir < 0) p.set("dir", "desc");
    Object.keys(S.r).forEach(function (r) { if (S.r[r]) p.set("r." + r, S.r[r]); });
    if (S.page) p.set("page", String(S.page));
    if (opened >= 0) p.set("open", keys[opened]);
    var text = p.toString();
    var next = text ? "#explorer?" + text : location.pathname + location.search;
    if (text ? location.hash !== next : location.hash.indexOf("#explorer?") === 0) history.replaceState(null, "", next);
  }

  // ---- filter and sort ----
  function matches(i) {
    var it = items[i];
    if (S.variant && R.variants[it[0]] !== S.variant) return false;
    if (S.outcome && R.outcomes[it[5]] !== S.outcome) return false;
    if (S.kind && it[3] !== S.kind) return false;
    if (S.tag && it[4].indexOf(S.tag) < 0) return false;
    for (var ri = 0; ri < R.rubrics.length; ri++) {
      var want = S.r[R.rubrics[ri]];
      if (!want) continue;
      var got = it[6][ri] ? VERDICT[it[6][ri]] : "none";
      if (got !== want) return false;
    }
    if (S.q) {
      var words = S.q.toLowerCase().split(/\s+/);
      for (var w = 0; w < words.length; w++) if (words[w] && hay[i].indexOf(words[w]) < 0) return false;
    }
    return true;
  }
  var VORDER = { n: 0, e: 1, y: 2, "": 3 };
  function sortKey(col) {
    if (col === "variant") return function (i) { return R.variants[items[i][0]]; };
    if (col === "question") return function (i) { return items[i][1]; };
    if (col === "kind") return function (i) { return items[i][3]; };
    if (col === "tags") return function (i) { return items[i][4].join(", "); };
    if (col === "outcome") return function (i) { return sev[i]; };
    if (col === "rank") return function (i) { var r = items[i][7]; return r === null ? Infinity : r; };
    if (col === "miss") return function (i) { return items[i][8] || "\uffff"; };
    if (col.indexOf("r.") === 0) {
      var ri = R.rubrics.indexOf(col.slice(2));
      return function (i) { return VORDER[items[i][6][ri] || ""]; };
    }
    return function (i) { return sev[i]; };
  }
  function compute() {
    var out = [];
    for (var i = 0; i < items.length; i++) if (matches(i)) out.push(i);
    var key = sortKey(S.sort || "outcome");
    var dir = S.sort ? S.dir : 1;
    var k = new Array(items.length);
    for (var j = 0; j < out.length; j++) k[out[j]] = key(out[j]);
    out.sort(function (a, b) {
      var x = k[a], y = k[b];
      if (x < y) return -dir;
      if (x > y) return dir;
      return a - b;
    });
    view = out;
  }

  // ---- the table ----
  function cell(tr, text, cls) { var td = el("td", cls, text); tr.appendChild(td); return td; }
  function renderTable() {
    var pages = Math.max(1, Math.ceil(view.length / PAGE));
    if (S.page >= pages) S.page = pages - 1;
    var start = S.page * PAGE;
    var body = document.createElement("tbody");
    for (var p = start; p < Math.min(view.length, start + PAGE); p++) {
      var i = view[p];
      var it = items[i];
      var tr = el("tr");
      tr.setAttribute("data-pos", String(p));
      if (p === sel) tr.className = "sel";
      if (i === opened) tr.classList.add("open");
      cell(tr, R.variants[it[0]]);
      var q = el("td");
      var b = el("button", "qid", it[1]);
      b.type = "button";
      b.setAttribute("data-pos", String(p));
      q.appendChild(b);
      q.appendChild(document.createTextNode(" "));
      q.appendChild(el("span", "qtext", it[2]));
      tr.appendChild(q);
      cell(tr, it[3]);
      cell(tr, it[4].join(", "));
      var o = R.outcomes[it[5]];
      cell(tr, LABELS[o] || o, "outcome " + o);
      for (var ri = 0; ri < R.rubrics.length; ri++) {
        var v = it[6][ri];
        cell(tr, v ? VERDICT[v] : "\u2014", v ? "v " + VERDICT[v] : "v");
      }
      cell(tr, it[7] === null ? "\u2014" : String(it[7]), "n");
      cell(tr, it[8]);
      body.appendChild(tr);
    }
    var table = $("rj-table");
    table.replaceChild(body, table.tBodies[0]);
    var ths = table.tHead.rows[0].cells;
    for (var h = 0; h < ths.length; h++) {
      var col = ths[h].getAttribute("data-sort");
      ths[h].setAttribute("aria-sort", S.sort === col ? (S.dir < 0 ? "descending" : "ascending") : "none");
    }
    var total = items.length;
    $("rj-status").textContent = view.length + " of " + total + " items" + (view.length ? " \u00b7 rows " + (start + 1) + "\u2013" + Math.min(view.length, start + PAGE) : "");
    $("rj-page").textContent = "page " + (S.page + 1) + " of " + pages;
    $("rj-prev").disabled = S.page === 0;
    $("rj-next").disabled = S.page >= pages - 1;
  }
  function refresh() { compute(); sel = -1; renderTable(); writeHash(); }

  ${EXPLORER_DETAIL_JS}
  function closeItem() {
    pending++;
    if (opened < 0) return;
    var back = opened;
    opened = -1;
    $("rj-detail").hidden = true;
    clear($("rj-detail"));
    renderTable();
    writeHash();
    var pos = view.indexOf(back);
    var b = pos >= 0 ? document.querySelector('#rj-table button.qid[data-pos="' + pos + '"]') : null;
    if (b) b.focus();
  }

  // ---- selection and keys ----
  function select(pos) {
    if (!view.length) return;
    sel = Math.max(0, Math.min(view.length - 1, pos));
    var page = Math.floor(sel / PAGE);
    if (page !== S.page) { S.page = page; writeHash(); }
    renderTable();
    var row = document.querySelector('#rj-table tr[data-pos="' + sel + '"]');
    if (row) row.scrollIntoView({ block: "nearest" });
  }
  function typing(t) { return t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA"); }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing(e.target)) {
      // Esc leaves the field and keeps what was typed (a search field would clear itself otherwise).
      if (e.key === "Escape") { e.preventDefault(); e.target.blur(); }
      else if (e.key === "Enter" && e.target.tagName === "INPUT") { e.preventDefault(); e.target.blur(); if (view.length) select(0); }
      return;
    }
    if (e.key === "/") { e.preventDefault(); $("rj-filters").elements.q.focus(); }
    else if (e.key === "j") { e.preventDefault(); select(sel < 0 ? S.page * PAGE : sel + 1); }
    else if (e.key === "k") { e.preventDefault(); select(sel < 0 ? S.page * PAGE : sel - 1); }
    else if (e.key === "Enter" && sel >= 0 && !(e.target && e.target.tagName === "BUTTON")) { e.preventDefault(); openItem(view[sel]); }
    else if (e.key === "Escape") closeItem();
  });

  // ---- wiring ----
  var form = $("rj-filters");
  function syncForm() {
    var f = form.elements;
    f.q.value = S.q;
    ["variant", "outcome", "kind", "tag"].forEach(function (k) { f[k].value = S[k]; });
    R.rubrics.forEach(function (r) { f["r." + r].value = S.r[r] || ""; });
  }
  function fromForm() {
    var f = form.elements;
    S.q = f.q.value.trim();
    ["variant", "outcome", "kind", "tag"].forEach(function (k) { S[k] = f[k].value; });
    R.rubrics.forEach(function (r) { S.r[r] = f["r." + r].value; });
    S.page = 0;
    refresh();
  }
  form.addEventListener("change", fromForm);
  form.elements.q.addEventListener("input", fromForm);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  $("rj-reset").addEventListener("click", function () { S = blank(); syncForm(); refresh(); });
  $("rj-prev").addEventListener("click", function () { if (S.page > 0) { S.page--; sel = -1; renderTable(); writeHash(); } });
  $("rj-next").addEventListener("click", function () { S.page++; sel = -1; renderTable(); writeHash(); });
  $("rj-table").tHead.addEventListener("click", function (e) {
    var th = e.target.closest("th");
    if (!th) return;
    var col = th.getAttribute("data-sort");
    if (S.sort === col) S.dir = -S.dir; else { S.sort = col; S.dir = 1; }
    S.page = 0;
    refresh();
  });
  $("rj-table").addEventListener("click", function (e) {
    var b = e.target.closest("button.qid");
    if (!b) return;
    var pos = parseInt(b.getAttribute("data-pos"), 10);
    sel = pos;
    openItem(view[pos]);
  });
  function apply() {
    var h = readHash();
    S = h.s;
    syncForm();
    compute();
    var target = h.open === null ? -1 : keys.indexOf(h.open);
    if (target >= 0 && view.indexOf(target) >= 0) S.page = Math.floor(view.indexOf(target) / PAGE);
    renderTable();
    if (target >= 0) { sel = view.indexOf(target); openItem(target); }
    else if (opened >= 0) { opened = -1; $("rj-detail").hidden = true; }
  }
  window.addEventListener("hashchange", function () { if (location.hash.indexOf("#explorer?") === 0) apply(); });
  form.hidden = false;
  $("rj-pages").hidden = false;
  document.documentElement.classList.add("rj-ready");
  apply();
  if (location.hash.indexOf("#explorer?") === 0) $("explorer").scrollIntoView();
})();
`;
