// The pages of an mbopt history site. A classic script (browsers refuse
// ES modules and fetch() from file://): the data files call MBOPT.index
// and MBOPT.chunk with JSON literals, and everything shown is built with
// createElement, textContent and setAttribute — never innerHTML — so a
// benchmark name is always text.
"use strict";
(function () {
  var M = (window.MBOPT = { data: null, chunks: {}, waiting: {}, drawn: 0 });
  M.index = function (d) {
    M.data = d;
  };
  M.chunk = function (n, series) {
    M.chunks[n] = series;
    var w = M.waiting[n] || [];
    delete M.waiting[n];
    w.forEach(function (f) {
      f();
    });
  };

  var NS = "http://www.w3.org/2000/svg";
  var root = ""; // the site's root, relative to the page

  // svg makes an SVG element with attributes under parent.
  function svg(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  // html makes an HTML element with a class and text under parent.
  function html(tag, cls, text, parent) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (parent) parent.appendChild(e);
    return e;
  }
  function pad3(n) {
    return ("00" + n).slice(-3);
  }
  function short(h) {
    return h.slice(0, 10);
  }
  function signed(p) {
    // p is a percentage
    var s = Math.abs(p) < 10 ? p.toFixed(2) : p.toFixed(1);
    if (p > 0) s = "+" + s;
    return s + "%";
  }
  function fmtValue(v, unit) {
    if (!v) return "";
    if (unit === "sec/op") {
      var scales = [[1e-9, "ns"], [1e-6, "µs"], [1e-3, "ms"], [1, "s"]];
      var i = 0;
      while (i + 1 < scales.length && Math.abs(v) >= scales[i + 1][0]) i++;
      return (v / scales[i][0]).toPrecision(4) + " " + scales[i][1] + "/op";
    }
    return Number(v.toPrecision(4)) + " " + unit;
  }
  // compact writes a tick value in 3 significant digits, from 10,000 on
  // with k, M or G for thousands, millions and billions (140M, not
  // 140000000, which drew over the axis title).
  function compact(v) {
    var scales = [[1e9, "G"], [1e6, "M"], [1e3, "k"]];
    for (var i = 0; Math.abs(v) >= 1e4 && i < scales.length; i++) {
      if (Math.abs(v) >= scales[i][0]) return Number((v / scales[i][0]).toPrecision(3)) + scales[i][1];
    }
    return Number(v.toPrecision(3)) + "";
  }
  // timeScale is the SI prefix that shows seconds up to hi best.
  function timeScale(hi) {
    var scales = [[1e-9, "ns"], [1e-6, "µs"], [1e-3, "ms"], [1, "s"]];
    var i = 0;
    while (i + 1 < scales.length && Math.abs(hi) >= scales[i + 1][0]) i++;
    return scales[i];
  }
  var verdictWords = { u: "unchanged", i: "potential improvement", r: "potential regression", I: "definite improvement", R: "definite regression" };
  var kindWords = { jump: "jump", trend: "trend", edivisive: "E-divisive change point", fixed: "fixed-value bound" };
  function detWords(definite, kind, change) {
    return (definite ? "definite " : "potential ") + (kindWords[kind] || kind) + " " + signed(change);
  }
  // estWords says what a comparison estimated of a change's effect on the
  // application, as compare says it: e is [change, low, high, likely
  // none] in percent.
  function estWords(e) {
    return "estimated application impact " + signed(e[0]) + " [" + signed(e[1]) + " … " + signed(e[2]) + "]" + (e[3] ? ": likely no application impact" : "");
  }
  // refWords names a benchmark's reference impact, which is no estimate
  // of what a change does to the application.
  function refWords(ref) {
    return "reference impact " + ref.toFixed(1) + "% (not an estimate)";
  }
  // regression reports whether a change of series s is a regression:
  // up, unless higher is better in its unit (MB/s).
  function regression(s, change) {
    return change > 0 !== !!s.hb;
  }
  // titleOf is a card's title: the benchmark's name, and its unit (and
  // settings) when counts (series per package and name) says another
  // series has the same name.
  function titleOf(s, counts) {
    var t = s.name;
    if (counts[s.pkg + "\u0000" + s.name] > 1) t += " · " + s.unit + (s.settings ? " · " + s.settings : "");
    return t;
  }
  // height is the impact a series is ordered by: the size of its latest
  // estimated application impact, else its reference impact, else -1.
  function height(s) {
    if (s.est) return Math.abs(s.est[0]);
    return s.impact === undefined ? -1 : s.impact;
  }
  // commitURL returns the link of a commit, or "" without a template.
  function commitURL(hash) {
    var t = M.data.commitURL;
    if (!t || !/^https?:\/\//.test(t) || !/^[0-9a-f]+$/.test(hash)) return "";
    return t.split("{commit}").join(hash);
  }
  // unitWords is a series' unit with the metric that measured it.
  function unitWords(s) {
    var m = s.metric || M.data.metric;
    return s.unit + (m ? " (metric " + m + ")" : "");
  }
  // axisLabel is a series chart's y label: the metric and unit, then
  // what the numbers are.
  function axisLabel(s) {
    return [unitWords(s), "% vs baseline " + M.data.baseline.hash.slice(0, 7)];
  }
  // baseWords names the baseline a point was measured against: "" for
  // the site's own, else the older one and how it was carried over.
  function baseWords(d, i) {
    var b = d.ag && d.ag[i] ? M.data.bases[d.ag[i] - 1] : null;
    return b ? "measured against the earlier baseline " + b.hash.slice(0, 7) + " (" + b.date + "), carried over through the rebaseline bridge" : "";
  }
  // bridgeWords lists where the baseline moved.
  function bridgeWords() {
    return (M.data.bridges || []).map(function (b) {
      return b[0].hash.slice(0, 7) + " → " + b[1].hash.slice(0, 7) + " (" + b[1].date + ")";
    });
  }
  function chunkOf(k) {
    return Math.floor(k / M.data.chunkSize);
  }
  function seriesData(k) {
    var c = M.chunks[chunkOf(k)];
    return c ? c[k % M.data.chunkSize] : null;
  }
  // load calls f once the data file holding series k is loaded.
  function load(k, f) {
    var n = chunkOf(k);
    if (M.chunks[n]) return f();
    if (M.waiting[n]) return M.waiting[n].push(f);
    M.waiting[n] = [f];
    var s = document.createElement("script");
    s.src = root + "data/chunk-" + pad3(n) + ".js";
    document.head.appendChild(s);
  }

  // The tooltip.
  var tip;
  function showTip(ev, lines) {
    tip.textContent = "";
    lines.forEach(function (l, i) {
      html("div", i === 0 ? "tip-head" : "", l, tip);
    });
    tip.hidden = false;
    var x = ev.clientX + 14,
      y = ev.clientY + 14;
    var r = tip.getBoundingClientRect();
    if (x + r.width > window.innerWidth) x = Math.max(0, ev.clientX - r.width - 14);
    if (y + r.height > window.innerHeight) y = Math.max(0, ev.clientY - r.height - 14);
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }
  function hideTip() {
    tip.hidden = true;
  }
  function hover(node, lines) {
    node.addEventListener("mousemove", function (ev) {
      showTip(ev, lines());
    });
    node.addEventListener("mouseleave", hideTip);
    node.addEventListener("focus", function () {
      var r = node.getBoundingClientRect();
      showTip({ clientX: r.right, clientY: r.top }, lines());
    });
    node.addEventListener("blur", hideTip);
  }

  // niceTicks returns about n round values spanning [lo, hi].
  function niceTicks(lo, hi, n) {
    var span = hi - lo || 1;
    var step = Math.pow(10, Math.floor(Math.log10(span / n)));
    var err = span / n / step;
    if (err >= 7.5) step *= 10;
    else if (err >= 3.5) step *= 5;
    else if (err >= 1.5) step *= 2;
    var out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }

  // frame draws the axes of a chart and returns its scales.
  function frame(box, o) {
    var W = o.width,
      H = o.height,
      L = 84,
      R = o.right || 14,
      T = 10,
      B = 46;
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, class: "plot", role: "img", "aria-label": o.label }, box);
    var nC = M.data.commits.hash.length;
    // half a commit's room on each side, so that the first and last
    // points, their marks and thresholds stay clear of the axes
    var x0 = o.xMin !== undefined ? o.xMin : -0.5,
      x1 = o.xMax !== undefined ? o.xMax : Math.max(0, nC - 1) + 0.5;
    var pad = (o.yMax - o.yMin) * 0.08 || 1;
    var y0 = o.yMin - pad,
      y1 = o.yMax + pad;
    var sx = function (c) {
      return L + ((c - x0) / (x1 - x0)) * (W - L - R);
    };
    var sy = function (v) {
      return T + (1 - (v - y0) / (y1 - y0)) * (H - T - B);
    };
    var g = svg("g", { class: "axes" }, root);
    niceTicks(y0, y1, o.big ? 8 : 4).forEach(function (v) {
      svg("line", { x1: L, x2: W - R, y1: sy(v), y2: sy(v), class: v === 0 ? "zero" : "grid" }, g);
      svg("text", { x: L - 6, y: sy(v) + 4, class: "tick", "text-anchor": "end" }, g).textContent = o.yTick(v);
    });
    // x ticks: up to 6 commits, short hash and date
    var want = o.big ? 8 : 5;
    var step = Math.max(1, Math.ceil((x1 - x0) / want));
    for (var c = Math.max(0, Math.ceil(x0)); c <= x1 && c < nC; c += step) {
      svg("line", { x1: sx(c), x2: sx(c), y1: H - B, y2: H - B + 4, class: "grid" }, g);
      var anchor = sx(c) - L < 36 ? "start" : W - R - sx(c) < 36 ? "end" : "middle";
      var t = svg("text", { x: sx(c), y: H - B + 16, class: "tick", "text-anchor": anchor }, g);
      t.textContent = M.data.commits.hash[c].slice(0, 7) + " " + M.data.commits.date[c].slice(5, 10);
    }
    svg("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }, g);
    svg("line", { x1: L, x2: L, y1: T, y2: H - B, class: "axis" }, g);
    svg("text", { x: (L + W - R) / 2, y: H - 6, class: "label", "text-anchor": "middle" }, g).textContent = o.xLabel;
    // the y label: one or two lines, rotated
    // A label longer than the axis is drawn smaller, so that it fits.
    [].concat(o.yLabel).forEach(function (line, i, all) {
      var yl = svg("text", { x: 0, y: 0, class: "label", "text-anchor": "middle", transform: "translate(" + (all.length > 1 ? 12 + 13 * i : 16) + "," + (T + H - B) / 2 + ") rotate(-90)" }, g);
      yl.textContent = line;
      fit(yl, H - B - T - 4);
    });
    return { svg: root, sx: sx, sy: sy, W: W, H: H, L: L, R: R, T: T, B: B, x0: x0, x1: x1 };
  }

  // fit makes the text element t at most room wide: smaller when it is
  // longer (the font size scaled down).
  function fit(t, room) {
    var w = t.getComputedTextLength ? t.getComputedTextLength() : 0;
    if (w > room && room > 0) {
      // a style, not the attribute, which the stylesheet's font-size
      // would override; CSSOM changes are no inline style to the CSP
      var size = parseFloat(window.getComputedStyle(t).fontSize) || 11.5;
      t.style.fontSize = ((size * room) / w).toFixed(2) + "px";
    }
  }

  // marker draws a detection's symbol at (x, y); better marks an
  // improvement, drawn green (a regression is red).
  function marker(parent, kind, definite, up, x, y, better) {
    var cls = "det " + (definite ? "definite" : "potential") + " " + kind + (better ? " improvement" : "");
    var r = 6;
    if (kind === "jump") {
      var d = up ? -1 : 1;
      return svg("path", { d: "M" + (x - r) + " " + (y - d * r * 0.2) + " L" + (x + r) + " " + (y - d * r * 0.2) + " L" + x + " " + (y + d * r) + " Z", class: cls }, parent);
    }
    if (kind === "trend") return svg("path", { d: "M" + x + " " + (y - 8) + " L" + (x + 8) + " " + y + " L" + x + " " + (y + 8) + " L" + (x - 8) + " " + y + " Z", class: cls }, parent);
    if (kind === "edivisive") return svg("circle", { cx: x, cy: y, r: 9, class: cls }, parent);
    return svg("rect", { x: x - 5, y: y - 5, width: 10, height: 10, class: cls }, parent);
  }

  // chart draws series k (summary s, data d) into box.
  function chart(box, k, big) {
    var s = M.data.series[k],
      d = seriesData(k);
    var n = d.c.length;
    var lo = 0,
      hi = 0;
    var upper = [],
      lower = [];
    for (var i = 0; i < n; i++) {
      var prev = i > 0 ? d.v[i - 1] : 0; // the first point's jump is from the baseline
      var t = d.th[i];
      upper.push(((1 + prev / 100) * (1 + t / 100) - 1) * 100);
      lower.push(((1 + prev / 100) * (1 - t / 100) - 1) * 100);
      lo = Math.min(lo, d.lo[i], d.v[i], lower[i]);
      hi = Math.max(hi, d.hi[i], d.v[i], upper[i]);
    }
    var f = frame(box, {
      width: big ? 960 : 600,
      height: big ? 380 : 230,
      big: big,
      yMin: lo,
      yMax: hi,
      label: s.id + " " + s.unit,
      yTick: function (v) {
        return signed(v);
      },
      xLabel: "commit (oldest → newest), short hash and date",
      yLabel: axisLabel(s),
    });
    var sx = f.sx,
      sy = f.sy,
      g = svg("g", { class: "series" }, f.svg);
    if (n === 0) return f;
    // CI band
    var band = "";
    for (i = 0; i < n; i++) band += (i ? " L" : "M") + sx(d.c[i]) + " " + sy(d.hi[i]);
    for (i = n - 1; i >= 0; i--) band += " L" + sx(d.c[i]) + " " + sy(d.lo[i]);
    svg("path", { d: band + " Z", class: "band" }, g);
    // the dynamic threshold around the previous commit
    var half = n > 1 ? Math.min(12, (sx(d.c[1]) - sx(d.c[0])) / 2.5) : 8;
    var up = "",
      dn = "";
    for (i = 0; i < n; i++) {
      var x = sx(d.c[i]);
      up += " M" + (x - half) + " " + sy(upper[i]) + " H" + (x + half);
      dn += " M" + (x - half) + " " + sy(lower[i]) + " H" + (x + half);
    }
    svg("path", { d: up, class: "threshold" }, g);
    svg("path", { d: dn, class: "threshold" }, g);
    var line = "";
    for (i = 0; i < n; i++) line += (i ? " L" : "M") + sx(d.c[i]) + " " + sy(d.v[i]);
    svg("path", { d: line, class: "line" }, g);
    // where the baseline moved: between two points measured against
    // different baselines
    for (i = 1; d.ag && i < n; i++) {
      if (d.ag[i] === d.ag[i - 1]) continue;
      var xb = (sx(d.c[i - 1]) + sx(d.c[i])) / 2;
      svg("line", { x1: xb, x2: xb, y1: f.T, y2: f.H - f.B, class: "rebase" }, g);
      var to = d.ag[i] ? M.data.bases[d.ag[i] - 1].hash : M.data.baseline.hash;
      svg("text", { x: xb + 3, y: f.T + 10, class: "tick rebase-label" }, g).textContent = "baseline → " + to.slice(0, 7);
    }
    for (i = 0; i < n; i++) svg("circle", { cx: sx(d.c[i]), cy: sy(d.v[i]), r: big ? 3 : 2.2, class: "pt v-" + d.vd[i] }, g);
    var byPoint = {};
    d.d.forEach(function (det) {
      (byPoint[det[0]] = byPoint[det[0]] || []).push(det);
      marker(g, det[1], det[2] === 1, det[3] >= 0, sx(d.c[det[0]]), sy(d.v[det[0]]), !regression(s, det[3]));
    });
    // hover targets, links to the commits
    var hits = svg("g", { class: "hits" }, f.svg);
    for (i = 0; i < n; i++) {
      (function (i) {
        var c = d.c[i],
          x = sx(c);
        var left = i > 0 ? (sx(d.c[i - 1]) + x) / 2 : f.L,
          right = i + 1 < n ? (sx(d.c[i + 1]) + x) / 2 : f.W - f.R;
        var url = commitURL(M.data.commits.hash[c]);
        var parent = hits;
        if (url) parent = svg("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, hits);
        var r = svg("rect", { x: left, y: f.T, width: Math.max(1, right - left), height: f.H - f.T - f.B, class: "hit", tabindex: url ? -1 : 0 }, parent);
        hover(parent === hits ? r : parent, function () {
          return pointLines(s, d, i, byPoint[i] || []);
        });
      })(i);
    }
    return f;
  }

  function pointLines(s, d, i, dets) {
    var c = d.c[i];
    var lines = [M.data.commits.hash[c].slice(0, 10) + " · " + M.data.commits.date[c] + " UTC"];
    if (M.data.commits.subject[c]) lines.push(M.data.commits.subject[c]);
    var val = d.h ? fmtValue(d.h[i], s.unit) + " (baseline " + fmtValue(d.b[i], s.unit) + "), " : "";
    lines.push(val + signed(d.v[i]) + " vs baseline");
    lines.push("99% CI [" + signed(d.lo[i]) + ", " + signed(d.hi[i]) + "], threshold ±" + d.th[i].toFixed(2) + "%");
    lines.push("verdict: " + verdictWords[d.vd[i]] + (d.vt && d.vt[i] ? " (judged against ±" + d.vt[i].toFixed(2) + "%)" : ""));
    if (baseWords(d, i)) lines.push(baseWords(d, i));
    if (d.ae && d.ae[i]) lines.push(estWords(d.ae[i]) + ((d.ae[i][5] || []).length ? "; culprits " + d.ae[i][5].join(", ") : ""));
    dets.forEach(function (det) {
      lines.push(detWords(det[2] === 1, det[1], det[3]) + " (threshold " + det[4].toFixed(2) + "%)");
    });
    return lines;
  }

  // The overview: Figure 8/9 view, filters, cards.
  function overview() {
    var D = M.data;
    document.getElementById("title").textContent = (D.title ? D.title + ": " : "") + "benchmark history";
    var nDet = 0;
    D.series.forEach(function (s) {
      nDet += s.det.length;
    });
    var moves = bridgeWords();
    document.getElementById("summary").textContent =
      D.series.length + " series over " + D.commits.hash.length + " commits against baseline " + short(D.baseline.hash) + " (" + D.baseline.date + " UTC" + (D.baseline.subject ? ", " + D.baseline.subject : "") + "); " + nDet + " detections." +
      (moves.length ? " The baseline moved: " + moves.join(", ") + "; a chart marks where its points change baseline." : "");
    var t0 = performance.now();
    figure();
    M.timing = { start: t0, figure: performance.now() - t0 };
    var cards = document.getElementById("cards");
    var nodes = [];
    var observer =
      "IntersectionObserver" in window
        ? new IntersectionObserver(
            function (entries) {
              entries.forEach(function (e) {
                if (e.isIntersecting) drawCard(e.target);
              });
            },
            { rootMargin: "400px" }
          )
        : null;
    var counts = {};
    D.series.forEach(function (s) {
      var key = s.pkg + "\u0000" + s.name;
      counts[key] = (counts[key] || 0) + 1;
    });
    D.series.forEach(function (s, k) {
      var card = html("section", "card", null, cards);
      card.dataset.k = k;
      var h = html("h3", "", null, card);
      var a = html("a", "", titleOf(s, counts), h);
      a.setAttribute("href", s.page);
      var facts = [s.pkg, unitWords(s)];
      if (s.machine) facts.push(s.machine);
      if (s.settings) facts.push("settings: " + s.settings);
      if (s.app) facts.push("the application benchmark (drawn on top of the figure above)");
      if (s.est) facts.push("at " + short(D.commits.hash[s.est[4]]) + ": " + estWords(s.est));
      facts.push(s.impact !== undefined ? refWords(s.impact) : s.est ? "reference impact unknown" : "impact unknown");
      facts.push("last " + signed(s.last));
      var def = 0;
      s.det.forEach(function (x) {
        def += x[2];
      });
      facts.push(s.det.length ? def + " definite, " + (s.det.length - def) + " potential detections" : "no detections");
      html("p", "facts", facts.join(" · "), card);
      html("div", "chart", null, card);
      nodes.push(card);
    });
    function drawCard(card) {
      if (card.dataset.drawn) return;
      card.dataset.drawn = "1";
      if (observer) observer.unobserve(card);
      var k = +card.dataset.k;
      load(k, function () {
        chart(card.querySelector(".chart"), k, false);
        M.drawn++;
      });
    }
    // filters and order
    var pkgSel = document.getElementById("filter-package"),
      nameIn = document.getElementById("filter-name"),
      sortSel = document.getElementById("sort");
    var pkgs = {};
    D.series.forEach(function (s) {
      pkgs[s.pkg] = true;
    });
    Object.keys(pkgs)
      .sort()
      .forEach(function (p) {
        var o = html("option", "", p, pkgSel);
        o.value = p;
      });
    function apply() {
      var pkg = pkgSel.value,
        q = nameIn.value.toLowerCase();
      var order = nodes.slice();
      if (sortSel.value === "impact")
        order.sort(function (a, b) {
          var sa = D.series[+a.dataset.k],
            sb = D.series[+b.dataset.k];
          return height(sb) - height(sa) || +a.dataset.k - +b.dataset.k;
        });
      else if (sortSel.value === "name")
        order.sort(function (a, b) {
          var sa = D.series[+a.dataset.k].id,
            sb = D.series[+b.dataset.k].id;
          return sa < sb ? -1 : sa > sb ? 1 : +a.dataset.k - +b.dataset.k;
        });
      var shown = 0;
      order.forEach(function (card) {
        var s = D.series[+card.dataset.k];
        var ok = (!pkg || s.pkg === pkg) && (!q || s.name.toLowerCase().indexOf(q) >= 0 || s.pkg.toLowerCase().indexOf(q) >= 0);
        card.hidden = !ok;
        cards.appendChild(card);
        if (!ok) return;
        // the first 20 shown are drawn at once, the rest when near the view
        if (shown < 20) drawCard(card);
        else if (observer && !card.dataset.drawn) observer.observe(card);
        else if (!observer) drawCard(card);
        shown++;
      });
      document.getElementById("shown").textContent = "showing " + shown + " of " + D.series.length + " series";
    }
    M.timing.cards = performance.now() - t0 - M.timing.figure;
    pkgSel.addEventListener("change", apply);
    nameIn.addEventListener("input", apply);
    sortSel.addEventListener("change", apply);
    document.getElementById("controls").addEventListener("submit", function (ev) {
      ev.preventDefault();
    });
    var t1 = performance.now();
    apply();
    M.timing.charts = performance.now() - t1;
  }

  // figure draws the Figure 8/9 view: the application above, every
  // detection below at its commit, as high as its benchmark's impact.
  function figure() {
    var D = M.data,
      A = D.app;
    var appBox = document.getElementById("app-chart");
    if (!A || !A.c.length) {
      html(
        "p",
        "note",
        "No application measurement is stored: the upper chart draws the application benchmark measured at each commit (mbopt compare --app-benchmark) or the application workload measured on both versions of a comparison (its confirmation). A reference profile's total CPU time is not a measurement and is not drawn.",
        appBox
      );
    } else {
      var lo = Infinity,
        hi = -Infinity;
      A.c.forEach(function (_, i) {
        lo = Math.min(lo, A.v[i], A.lo[i] || A.v[i]);
        hi = Math.max(hi, A.v[i], A.hi[i] || A.v[i]);
      });
      // seconds are shown in the unit their size calls for
      var sc = /^sec\//.test(A.unit) ? timeScale(hi) : [1, ""];
      var f = frame(appBox, {
        width: 1000,
        height: 220,
        right: 300, // as the chart below, so that the commits align
        yMin: lo,
        yMax: hi,
        label: "application " + A.name,
        yTick: function (v) {
          return compact(v / sc[0]);
        },
        xLabel: "commit (oldest → newest), short hash and date",
        yLabel: [sc[1] ? A.unit.replace(/^sec/, sc[1]) : A.unit, "measured"],
      });
      // what was measured, above the chart's data
      var cap = svg("text", { x: f.L + 8, y: f.T + 12, class: "tick caption" }, f.svg);
      cap.textContent = "application: " + A.name + (A.source === "confirmation" ? ", measured on both versions of each comparison (its confirmation)" : ", the application benchmark measured at each commit");
      fit(cap, f.W - f.R - f.L - 16);
      var g = svg("g", { class: "series app" }, f.svg);
      var band = "",
        line = "";
      A.c.forEach(function (c, i) {
        band += (i ? " L" : "M") + f.sx(c) + " " + f.sy(A.hi[i] || A.v[i]);
        line += (i ? " L" : "M") + f.sx(c) + " " + f.sy(A.v[i]);
      });
      for (var i = A.c.length - 1; i >= 0; i--) band += " L" + f.sx(A.c[i]) + " " + f.sy(A.lo[i] || A.v[i]);
      svg("path", { d: band + " Z", class: "band" }, g);
      svg("path", { d: line, class: "line" }, g);
      // a lone measurement's band has no width: its interval is a bar
      if (A.c.length === 1 && (A.lo[0] || A.hi[0])) svg("line", { x1: f.sx(A.c[0]), x2: f.sx(A.c[0]), y1: f.sy(A.lo[0] || A.v[0]), y2: f.sy(A.hi[0] || A.v[0]), class: "ci-bar" }, g);
      A.c.forEach(function (c, i) {
        var pt = svg("circle", { cx: f.sx(c), cy: f.sy(A.v[i]), r: 3, class: "pt", tabindex: 0 }, g);
        hover(pt, function () {
          var l = [D.commits.hash[c].slice(0, 10) + " · " + D.commits.date[c] + " UTC", A.name + ": " + fmtValue(A.v[i], A.unit)];
          if (A.lo[i] || A.hi[i]) l.push("99% CI [" + fmtValue(A.lo[i], A.unit) + ", " + fmtValue(A.hi[i], A.unit) + "]");
          l.push(A.source === "confirmation" ? "the application measured on both versions of the comparison (its confirmation)" : "the application benchmark measured at this commit");
          return l;
        });
      });
      // the application benchmark's own detections, as on its chart
      (A.det || []).forEach(function (det) {
        var i = A.c.indexOf(det[0]);
        // the application is measured in a cost (time, CPU,
        // instructions): down is better
        var up = i > 0 ? A.v[i] >= A.v[i - 1] : true;
        marker(g, det[1], det[2] === 1, up, f.sx(det[0]), f.sy(A.v[i]), !up);
      });
    }
    // the detections by impact: at the estimated application impact of
    // their comparison (the size of the estimated change of the
    // application's CPU time), else, drawn apart, at the benchmark's
    // reference impact, which is no estimate; else below the axis.
    var box = document.getElementById("impact-chart");
    var dets = [],
      top = 0,
      unknown = false;
    D.series.forEach(function (s, k) {
      if (s.app) return; // the application benchmark's own: marked above
      s.det.forEach(function (det, j) {
        var e = s.de && s.de[j] ? s.de[j] : null;
        var y = e ? Math.abs(e[0]) : s.impact === undefined ? null : s.impact;
        if (y === null) unknown = true;
        else top = Math.max(top, y, e ? Math.max(Math.abs(e[1]), Math.abs(e[2])) : 0);
        dets.push({ k: k, c: det[0], kind: det[1], definite: det[2] === 1, change: det[3], y: y, est: e, better: !regression(s, det[3]) });
      });
    });
    var f2 = frame(box, {
      width: 1000,
      height: 260,
      right: 300, // the key's room
      yMin: unknown ? -top * 0.12 - 0.5 : 0,
      yMax: Math.max(top, 1),
      label: "detections by impact",
      yTick: function (v) {
        return v < 0 ? "" : v.toFixed(v < 10 ? 1 : 0) + "%";
      },
      xLabel: "commit (oldest → newest), short hash and date",
      yLabel: ["impact on the application", "(% of its CPU time)"],
    });
    if (unknown) {
      var yu = f2.sy(-top * 0.06 - 0.25);
      svg("text", { x: f2.L + 4, y: yu - 8, class: "tick" }, f2.svg).textContent =
        top > 0 ? "impact unknown" : "impact unknown: compare with the analysis flags (--app, --micro) to estimate each change's application impact";
    }
    var g2 = svg("g", { class: "impacts" }, f2.svg);
    // potential first, so definite ones lie on top
    dets.sort(function (a, b) {
      return a.definite - b.definite || a.c - b.c || a.k - b.k;
    });
    dets.forEach(function (det) {
      var s = D.series[det.k];
      var x = f2.sx(det.c);
      var y = det.y === null ? f2.sy(-top * 0.06 - 0.25) : f2.sy(det.y);
      var a = svg("a", { href: s.page, class: "impact-link" }, g2);
      var cls = (det.definite ? "definite" : "potential") + (det.better ? " improvement" : "");
      if (det.est) {
        // the estimate's interval, as sizes: from the smaller to the larger
        // end, from 0 when it spans no change
        var l = Math.abs(det.est[1]),
          h = Math.abs(det.est[2]);
        var from = det.est[1] * det.est[2] > 0 ? Math.min(l, h) : 0;
        svg("line", { x1: x, x2: x, y1: f2.sy(from), y2: f2.sy(Math.max(l, h)), class: "estimate-ci " + cls }, a);
        svg("circle", { cx: x, cy: y, r: 5, class: "impact estimate " + cls }, a);
      } else if (det.y !== null) {
        svg("rect", { x: x - 5, y: y - 5, width: 10, height: 10, class: "impact reference " + cls }, a);
      } else {
        svg("circle", { cx: x, cy: y, r: 5, class: "impact unknown " + cls }, a);
      }
      hover(a, function () {
        return [
          s.name,
          s.pkg + " · " + s.unit,
          detWords(det.definite, det.kind, det.change) + " (" + (det.better ? "improvement" : "regression") + ") at " + D.commits.hash[det.c].slice(0, 10) + " · " + D.commits.date[det.c] + " UTC",
          det.est ? estWords(det.est) : det.y === null ? "impact unknown" : refWords(det.y) + ": no application impact was estimated",
        ];
      });
    });
    impactLegend(f2);
  }

  // impactLegend draws the key of the detections-by-impact chart right of
  // its plot: the colours and shapes the chart uses.
  function impactLegend(f) {
    var items = [
      ["circle", "definite", "regression, at its estimated impact"],
      ["circle", "definite improvement", "improvement, at its estimated impact"],
      ["circle", "potential", "potential: a ring"],
      ["rect", "definite reference", "no estimate: at the reference impact"],
      ["", "", "(the reference impact is not an estimate)"],
    ];
    var g = svg("g", { class: "legend" }, f.svg);
    var x = f.W - f.R + 24,
      y = f.T + 6;
    items.forEach(function (it, i) {
      var cy = y + 4 + i * 15;
      if (it[0] === "circle") svg("circle", { cx: x, cy: cy, r: 4.5, class: "impact estimate " + it[1] }, g);
      else if (it[0]) svg("rect", { x: x - 4.5, y: cy - 4.5, width: 9, height: 9, class: "impact " + it[1] }, g);
      var t = svg("text", { x: x + 10, y: cy + 4, class: "tick" }, g);
      t.textContent = it[2];
      fit(t, f.W - x - 14);
    });
  }

  // The page of one series.
  function seriesPage(k) {
    var D = M.data,
      s = D.series[k],
      d = seriesData(k);
    document.getElementById("title").textContent = s.name;
    var facts = document.getElementById("facts");
    function fact(term, value) {
      html("dt", "", term, facts);
      html("dd", "", value, facts);
    }
    fact("package", s.pkg);
    fact("benchmark", s.name);
    fact("unit", unitWords(s));
    fact("baseline", short(D.baseline.hash) + " (" + D.baseline.date + " UTC" + (D.baseline.subject ? ", " + D.baseline.subject : "") + ")");
    if (bridgeWords().length) fact("baseline moved", bridgeWords().join(", ") + " (rebaseline bridges: points measured against another baseline are carried over)");
    if (s.machine) fact("machine", s.machine);
    if (s.settings) fact("settings", s.settings);
    if (s.est) fact("estimated application impact", "at " + short(D.commits.hash[s.est[4]]) + ": " + estWords(s.est) + " (the latest comparison that estimated one; each commit's is in the table)");
    fact("reference impact", s.impact !== undefined ? s.impact.toFixed(2) + "% of the application's CPU time in the functions it covers (not an estimate of a change's effect)" : "unknown");
    fact("initial threshold", d.init.toFixed(2) + "% (" + d.src + "), where the detectors start");
    if (d.vt) {
      // the thresholds the verdicts were taken against, as runs of points
      var runs = [];
      d.vt.forEach(function (v, i) {
        var r = runs[runs.length - 1];
        if (r && r[0] === v) r[2] = i;
        else runs.push([v, i, i]);
      });
      fact(
        "verdicts judged against",
        runs
          .map(function (r) {
            return (r[0] ? "±" + r[0].toFixed(2) + "%" : "unknown") + " (" + (r[1] === r[2] ? "#" + r[1] : "#" + r[1] + "–" + r[2]) + ")";
          })
          .join(", ") + ": each verdict stays as its comparison took it; a later calibration changes only the detectors' start"
      );
    }
    chart(document.getElementById("chart"), k, true);
    var ul = document.getElementById("detections");
    if (!d.d.length) html("li", "", "no detections", ul);
    var marks = {};
    d.d.forEach(function (det) {
      var c = d.c[det[0]];
      // coloured as its marker: green an improvement
      var li = html("li", (det[2] ? "definite" : "potential") + (regression(s, det[3]) ? "" : " improvement"), null, ul);
      commitLink(li, c);
      li.appendChild(document.createTextNode(" " + detWords(det[2] === 1, det[1], det[3]) + " (threshold " + det[4].toFixed(2) + "%" + (det[5] ? ", against " + det[5] + " commits" : "") + ")"));
      (marks[det[0]] = marks[det[0]] || []).push((det[2] ? "definite " : "potential ") + det[1]);
    });
    var tb = document.querySelector("#points tbody");
    for (var i = d.c.length - 1; i >= 0; i--) {
      var c = d.c[i];
      var tr = html("tr", "v-" + d.vd[i], null, tb);
      html("td", "num", i, tr);
      commitLink(html("td", "", null, tr), c);
      html("td", "", D.commits.date[c], tr);
      html("td", "subject", D.commits.subject[c], tr);
      html("td", "num", d.b ? fmtValue(d.b[i], s.unit) : "", tr);
      html("td", "num", d.h ? fmtValue(d.h[i], s.unit) : "", tr);
      var ch = html("td", "num", signed(d.v[i]) + (baseWords(d, i) ? " †" : ""), tr);
      if (baseWords(d, i)) ch.setAttribute("title", baseWords(d, i));
      html("td", "num", "[" + signed(d.lo[i]) + ", " + signed(d.hi[i]) + "]", tr);
      html("td", "num", d.th[i].toFixed(2) + "%", tr);
      html("td", "", verdictWords[d.vd[i]] + (d.vt && d.vt[i] ? " (±" + d.vt[i].toFixed(2) + "%)" : ""), tr);
      html("td", "num", d.ae && d.ae[i] ? signed(d.ae[i][0]) + " [" + signed(d.ae[i][1]) + " … " + signed(d.ae[i][2]) + "]" + (d.ae[i][3] ? " likely none" : "") : "", tr);
      html("td", "", (marks[i] || []).join(", "), tr);
    }
    M.drawn = 1;
  }
  function commitLink(parent, c) {
    var h = M.data.commits.hash[c];
    var url = commitURL(h);
    var a = html(url ? "a" : "code", "commit", h.slice(0, 10), parent);
    if (url) a.setAttribute("href", url);
    return a;
  }

  document.addEventListener("DOMContentLoaded", function () {
    tip = document.getElementById("tip");
    var body = document.body;
    root = body.dataset.root || "";
    if (!M.data) {
      html("p", "note", "The site's data (data/index.js) did not load.", document.querySelector("main"));
      return;
    }
    if (body.dataset.series !== undefined) seriesPage(+body.dataset.series);
    else overview();
    // Ready once the drawn page has been painted: the frame after this
    // one has begun. renderMs counts from the start of the navigation.
    requestAnimationFrame(function () {
      setTimeout(function () {
        M.renderMs = performance.now();
        document.documentElement.dataset.ready = "1";
      }, 0);
    });
  });
})();
