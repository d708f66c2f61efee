/**
 * The detail panel of the item explorer's script (spliced into
 * explorer-client.ts, whose scope it shares: `$`, `el`, `clear`, `R`,
 * `items`, `keys`, `LABELS`, `opened`, `renderTable`, `writeHash`...).
 * Builds one item's question, reference, answer with linked citation
 * markers, context with the anchor marked, retrieved chunks by stage, miss
 * analysis, judge verdicts with reasons and fingerprints, labels and review
 * command, all through `textContent`. Evidence blocks are inflated on the
 * first open of an item that needs them.
 */
export const EXPLORER_DETAIL_JS = String.raw`// ---- the detail panel ----
  // A compressed data block (base64 of gzip'd JSON), inflated by the browser itself: a promise of its value.
  function inflate(id) {
    var bin = atob($(id).textContent);
    var bytes = new Uint8Array(bin.length);
    for (var b = 0; b < bin.length; b++) bytes[b] = bin.charCodeAt(b);
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(JSON.parse);
  }
  function evidence(i) {
    var s = Math.floor(i / R.shard);
    if (!CHUNKS) CHUNKS = inflate("rj-chunks");
    if (!SHARDS[s]) SHARDS[s] = inflate("rj-ev-" + s);
    return Promise.all([CHUNKS, SHARDS[s]]).then(function (v) { return { chunks: v[0], x: v[1][i - s * R.shard] }; });
  }
  var pending = 0; // the latest open request: an older one that resolves later is dropped
  function shellWord(w) { return /^[A-Za-z0-9_.\/:@%+=,#-]+$/.test(w) ? w : "'" + w.replace(/'/g, "'\\''") + "'"; }
  function section(parent, title) {
    var s = el("div", "dsec");
    s.appendChild(el("h4", "", title));
    parent.appendChild(s);
    return s;
  }
  function textWithMarks(node, text, spans) {
    var done = 0;
    (spans || []).forEach(function (sp) {
      if (sp[0] > done) node.appendChild(document.createTextNode(text.slice(done, sp[0])));
      node.appendChild(el("mark", "anchor", text.slice(sp[0], sp[1])));
      done = sp[1];
    });
    if (done < text.length) node.appendChild(document.createTextNode(text.slice(done)));
  }
  function flash(node) {
    node.classList.add("flash");
    node.scrollIntoView({ block: "nearest" });
    setTimeout(function () { node.classList.remove("flash"); }, 1600);
  }
  function table(head, rows) {
    var t = el("table", "dtable");
    var tr = el("tr");
    head.forEach(function (h) { tr.appendChild(el("th", "", h)); });
    var th = el("thead"); th.appendChild(tr); t.appendChild(th);
    var tb = el("tbody");
    rows.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (c) {
        if (c && c.nodeType) { var td = el("td"); td.appendChild(c); row.appendChild(td); }
        else row.appendChild(el("td", "", c === null || c === undefined ? "\u2014" : c));
      });
      tb.appendChild(row);
    });
    t.appendChild(tb);
    return t;
  }
  function openItem(i) {
    var ticket = ++pending;
    evidence(i).then(function (got) { if (ticket === pending) showItem(i, got.x, got); }, function (err) {
      $("rj-status").textContent = "Could not read this item's evidence: " + err;
    });
  }
  function showItem(i, x, ev) {
    var it = items[i];
    opened = i;
    var d = $("rj-detail");
    clear(d);
    var head = el("div", "dhead");
    var h = el("h3", "", R.variants[it[0]] + " \u00b7 " + it[1] + " ");
    var o = R.outcomes[it[5]];
    h.appendChild(el("span", "badge outcome " + o, LABELS[o] || o));
    head.appendChild(h);
    var close = el("button", "close", "Close (Esc)");
    close.type = "button";
    close.addEventListener("click", closeItem);
    head.appendChild(close);
    d.appendChild(head);
    var meta = ["kind: " + it[3]];
    if (it[4].length) meta.push("tags: " + it[4].join(", "));
    if (it[10]) meta.push("split: " + it[10]);
    meta.push("verdicts: " + x.because);
    d.appendChild(el("p", "muted", meta.join("  \u00b7  ")));

    section(d, "Question").appendChild(el("p", "text", it[2]));
    section(d, "Reference answer").appendChild(el("p", "text", x.ref === null ? "(none in the golden set)" : x.ref));
    var ctxPos = {};
    x.ctx.forEach(function (c) { ctxPos[ev.chunks[c[0]][0]] = c[1]; });
    var ans = el("p", "text");
    if (x.ans === null) ans.textContent = "(no answer)";
    else x.ans.forEach(function (s) {
      if (s.length === 1) { ans.appendChild(document.createTextNode(s[0])); return; }
      var b = el("button", s[2] ? "cite unknown" : "cite", s[0]);
      b.type = "button";
      b.title = s[2] ? "names no chunk of the context: " + s[1].join(", ") : "cites " + s[1].join(", ");
      b.addEventListener("click", function () {
        for (var r = 0; r < s[1].length; r++) {
          var card = $("rj-ctx-" + ctxPos[s[1][r]]);
          if (card) { flash(card); return; }
        }
      });
      ans.appendChild(b);
    });
    section(d, "Answer").appendChild(ans);

    // Claim-level faithfulness: each claim's verdict, checked against the context shown below.
    var claimRows = [];
    var unsupported = 0;
    x.rub.forEach(function (r) {
      r[2].forEach(function (u) {
        if (u[6] === null || u[6] === undefined) return;
        if (u[1] === "no") unsupported++;
        claimRows.push([u[0], u[6], u[1] === "yes" ? "supported" : u[1] === "no" ? "UNSUPPORTED" : "error", u[3] + (u[4] ? " [" + u[4] + "]" : "")]);
      });
    });
    if (claimRows.length) {
      var cl = section(d, "Claims (" + unsupported + " of " + claimRows.length + " unsupported), each checked against the context below");
      cl.appendChild(table(["claim", "text", "verdict", "reason"], claimRows));
    }

    if (x.miss) {
      var m = section(d, "Miss analysis: " + x.miss.failure);
      m.appendChild(el("p", "", "Proposal: " + x.miss.proposal));
      m.appendChild(el("p", "muted", x.miss.why));
      if (x.miss.evidence) m.appendChild(el("p", "evidence", "Text evidence: " + x.miss.evidence));
    }

    var cs = section(d, "Context given to the generator (" + x.ctx.length + " chunks)");
    if (x.anchor) {
      var an = el("p", "muted", "Anchor, in document " + x.anchor.doc + ": ");
      an.appendChild(el("mark", "anchor", x.anchor.text));
      cs.appendChild(an);
    }
    if (!x.ctx.length) cs.appendChild(el("p", "muted", "No context."));
    x.ctx.forEach(function (c) {
      var ch = ev.chunks[c[0]];
      var card = el("div", "chunk" + (c[3] ? " cited" : "") + (c[2] ? " relevant" : ""));
      card.id = "rj-ctx-" + c[1];
      var top = el("div", "chunk-head");
      top.appendChild(el("span", "pos", "[" + c[1] + "]"));
      top.appendChild(el("span", "cid", ch[0]));
      if (ch[2]) top.appendChild(el("span", "muted", ch[2]));
      if (c[4].length) top.appendChild(el("span", "badge anchor", "holds the anchor"));
      else if (c[2]) top.appendChild(el("span", "badge anchor", "relevant"));
      if (c[3]) top.appendChild(el("span", "badge cited", "cited"));
      card.appendChild(top);
      var p = el("p", "text");
      textWithMarks(p, ch[3], c[4]);
      card.appendChild(p);
      cs.appendChild(card);
    });

    var rs = section(d, "Top retrieved chunks, with their rank in each stage");
    rs.appendChild(table(["rank", "chunk", "relevant", "in context"].concat(x.stages), x.ret.map(function (r) {
      var ch = ev.chunks[r[1]];
      var det = el("details");
      det.appendChild(el("summary", "", ch[0] + (ch[2] ? "  \u00b7  " + ch[2] : "")));
      det.appendChild(el("p", "text", ch[3]));
      return [String(r[0]), det, r[2] ? "yes" : "", r[3] ? "yes" : ""].concat(r[4].map(function (s) { return s === null ? "\u2014" : String(s); }));
    })));

    var js = section(d, "Judge: each rubric's verdict, reason and fingerprint");
    var rows = [];
    x.rub.forEach(function (r) {
      if (!r[2].length) { rows.push([r[0], "", "not judged", "", "", "", ""]); return; }
      r[2].forEach(function (u) {
        var j = R.judges[u[2]];
        var fp = el("code", "", j[1].slice(0, 12));
        fp.title = j[1];
        rows.push([r[0], u[0], u[1], j[0] + (j[2] ? " (" + j[2] + ")" : ""), u[3] + (u[4] ? " [" + u[4] + "]" : "") + (u[5] ? " [rule " + u[5] + "]" : ""), fp]);
      });
    });
    js.appendChild(table(["rubric", "unit", "verdict", "judge", "reason", "fingerprint"], rows));

    var ls = section(d, "Labels");
    var labels = [];
    x.rub.forEach(function (r) { r[3].forEach(function (l) { labels.push([r[0], l[0], l[1], l[2], l[3], l[4], l[5], l[6]]); }); });
    if (labels.length) ls.appendChild(table(["rubric", "unit", "label", "annotator", "provenance", "frame", "time", "note"], labels));
    else ls.appendChild(el("p", "muted", "No label for this item's evidence yet."));

    var cmd = section(d, "Review it");
    if (x.rev === false) cmd.appendChild(el("p", "muted", "Nothing to review: every verdict on this item was decided by rule (exact, never calibrated)."));
    else {
      var pre = el("pre");
      pre.appendChild(el("code", "", x.rev !== null ? x.rev : R.review.replace("{item}", shellWord(keys[i]))));
      cmd.appendChild(pre);
    }

    d.hidden = false;
    renderTable();
    writeHash();
    d.focus({ preventScroll: true });
    d.scrollIntoView({ block: "start" });
  }`;
