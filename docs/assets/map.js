// The map of the digest (/map/) and its small preview on the home page.
//
// map.json (written by generator/explore.py) places every paper at build time; this
// file only draws it. Every paper is one point on a <canvas> (no DOM node per paper),
// coloured by its first topic, with the topics of its regions written on it. Pointing at
// a point (or a first tap) shows the title and venue, a click (or a second tap) opens the
// paper, the arrow keys go from paper to paper, the legend's keys filter by topic, the
// wheel, a drag or two fingers zoom and pan, and the controls filter by topic and venue
// and highlight papers whose title or topics hold the words typed.
// /map/?topic=<slug>&venue=<slug>&highlight=<words> sets the controls (not ?q=, which
// opens Material's search), /map/#<paper id>
// and /map/?paper=<id> centre the map on that paper (paper pages link with the query: a
// fragment would name an element the page does not have). Text from the data is only ever set as textContent.
(function () {
  "use strict";

  var GRID = 64; // cells per side of the hover index
  var HOVER_PX = 9; // how near the pointer must be to a point, in CSS pixels
  var MAX_LISTED = 100;

  function siteRoot() {
    var base = ".";
    try {
      base = JSON.parse(document.getElementById("__config").textContent).base || ".";
    } catch (e) { /* a page without Material's config: the site root is here */ }
    return new URL(base.replace(/\/?$/, "/"), location.href);
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fold(s) {
    return s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function dark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }

  // One colour per topic, hues a golden angle apart; lighter on the dark scheme.
  function topicColour(i) {
    if (i < 0) return dark() ? "hsl(0, 0%, 70%)" : "hsl(0, 0%, 45%)";
    var hue = Math.round((i * 137.508) % 360);
    return "hsl(" + hue + ", 65%, " + (dark() ? "64%" : "42%") + ")";
  }

  // map.json: {topics: [{name, slug, parent?}], venues: [{name, slug}], aliases: {id: id},
  //            papers: [[id, x, y, [topic indices], venue index, title], ...]},
  // x and y integers from 0 to 10000.
  function decode(data) {
    var rows = data.papers, n = rows.length;
    var d = {
      n: n, topics: data.topics, venues: data.venues,
      ids: new Array(n), titles: new Array(n), topicsOf: new Array(n),
      xs: new Float32Array(n), ys: new Float32Array(n),
      // byId has no prototype: an id from the URL ("constructor", "__proto__") finds no paper.
      // 32-bit indices: every seed file may name a venue of its own, and a 16-bit index
      // wrapped at the 32,768th (its papers matched no venue, and naming one threw).
      first: new Int32Array(n), venue: new Int32Array(n), byId: Object.create(null), words: null,
    };
    for (var i = 0; i < n; i++) {
      var r = rows[i];
      d.ids[i] = r[0];
      d.xs[i] = r[1] / 10000;
      d.ys[i] = 1 - r[2] / 10000; // y grows upwards in the layout, downwards on screen
      d.topicsOf[i] = r[3];
      d.first[i] = r[3].length ? r[3][0] : -1;
      d.venue[i] = r[4];
      d.titles[i] = r[5];
      d.byId[r[0]] = i;
    }
    for (var alias in data.aliases || {}) {
      if (data.aliases[alias] in d.byId) d.byId[alias] = d.byId[data.aliases[alias]];
    }
    return d;
  }

  // The paper id in the URL's fragment; a fragment that is not percent-encoding names none.
  function fragment() {
    try {
      return decodeURIComponent(location.hash.slice(1));
    } catch (e) {
      return "";
    }
  }

  // The words to highlight, each once, the first MAX_TERMS of them (as search counts the
  // first 32 words of a query): each is looked for in every paper on each keystroke, and a
  // link's ?highlight= of 4,000 words took seconds a keystroke at 20,000 papers.
  var MAX_TERMS = 32;
  function highlightTerms(text) {
    var seen = new Set(fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean));
    return Array.from(seen).slice(0, MAX_TERMS);
  }

  // Searchable words of each paper: its title and topic names, folded; built on first use.
  function words(d) {
    if (!d.words) {
      d.words = new Array(d.n);
      for (var i = 0; i < d.n; i++) {
        var text = d.titles[i];
        for (var t = 0; t < d.topicsOf[i].length; t++) text += " " + d.topics[d.topicsOf[i][t]].name;
        d.words[i] = " " + fold(text).replace(/[^\p{L}\p{N}]+/gu, " ");
      }
    }
    return d.words;
  }

  // Counting sort of the points into GRID x GRID cells of the unit square.
  function buildIndex(d) {
    var cell = new Int32Array(d.n), counts = new Int32Array(GRID * GRID + 1);
    for (var i = 0; i < d.n; i++) {
      var cx = Math.min(GRID - 1, Math.max(0, Math.floor(d.xs[i] * GRID)));
      var cy = Math.min(GRID - 1, Math.max(0, Math.floor(d.ys[i] * GRID)));
      cell[i] = cy * GRID + cx;
      counts[cell[i] + 1]++;
    }
    for (var c = 0; c < GRID * GRID; c++) counts[c + 1] += counts[c];
    var order = new Int32Array(d.n), fill = counts.slice(0, GRID * GRID);
    for (i = 0; i < d.n; i++) order[fill[cell[i]]++] = i;
    return { starts: counts, order: order };
  }

  function fetchMap(root) {
    return fetch(new URL("map.json", root)).then(function (r) {
      if (!r.ok) throw new Error("map.json: HTTP " + r.status);
      return r.json();
    }).then(decode);
  }

  // -- drawing ---------------------------------------------------------------

  function Painter(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.w = this.h = 0;
  }

  Painter.prototype.resize = function () {
    var ratio = window.devicePixelRatio || 1;
    var rect = this.canvas.getBoundingClientRect();
    this.w = Math.max(1, rect.width);
    this.h = Math.max(1, rect.height);
    this.canvas.width = Math.round(this.w * ratio);
    this.canvas.height = Math.round(this.h * ratio);
    this.ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  };

  // Topic colours as RGB bytes, for drawing into pixels (topicColour's HSL, converted).
  function rgb(i) {
    var light = i < 0 ? (dark() ? 0.7 : 0.45) : (dark() ? 0.64 : 0.42);
    var sat = i < 0 ? 0 : 0.65, hue = i < 0 ? 0 : Math.round((i * 137.508) % 360) / 360;
    var q = light < 0.5 ? light * (1 + sat) : light + sat - light * sat, p = 2 * light - q;
    function channel(t) {
      t = (t + 1) % 1;
      var v = t < 1 / 6 ? p + (q - p) * 6 * t : t < 1 / 2 ? q : t < 2 / 3 ? p + (q - p) * (2 / 3 - t) * 6 : p;
      return Math.round(v * 255);
    }
    return [channel(hue + 1 / 3), channel(hue), channel(hue - 1 / 3)];
  }

  // Thousands of points: squares written straight into the canvas's pixels, one
  // putImageData for the frame. Filling a path of 20,000 rectangles took most of a frame's
  // budget on a software-rendered canvas; this is a few milliseconds at any count.
  Painter.prototype.drawPixels = function (d, groups, mask, side, ox, oy, k) {
    var W = this.canvas.width, H = this.canvas.height, ratio = W / this.w;
    if (!this.image || this.image.width !== W || this.image.height !== H)
      this.image = this.ctx.createImageData(W, H);
    var px = new Uint32Array(this.image.data.buffer);
    px.fill(0);
    var pack = function (c, a) { return ((a << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0; };  // RGBA bytes, little-endian
    // A point is a disc of diameter s pixels (a square below 4, where they look the same):
    // each row's half-width, worked out once a frame.
    var spans = {};
    var spanOf = function (s) {
      if (spans[s]) return spans[s];
      var out = new Int32Array(s), r = s / 2;
      for (var row = 0; row < s; row++) {
        var dy = row + 0.5 - r;
        out[row] = s < 4 ? s : Math.round(2 * Math.sqrt(Math.max(0, r * r - dy * dy)));
      }
      return (spans[s] = out);
    };
    var put = function (x, y, s, value) {
      var rx = Math.round(x - s / 2), ry = Math.round(y - s / 2), span = spanOf(s);  // clipped to the canvas, never moved onto it
      for (var row = 0; row < s; row++) {
        var yy = ry + row;
        if (yy < 0 || yy >= H) continue;
        var lead = (s - span[row]) >> 1;
        var x0 = Math.max(0, rx + lead), x1 = Math.min(W, rx + lead + span[row]);
        for (var xx = x0, base = yy * W; xx < x1; xx++)
          px[base + xx] = value;
      }
    };
    var i;
    if (mask) {
      var faint = dark() ? pack([255, 255, 255], 33) : pack([0, 0, 0], 31), s2 = Math.max(1, Math.round(2 * ratio));
      for (i = 0; i < d.n; i++)
        if (!mask[i]) put((d.xs[i] * k + ox) * ratio, (d.ys[i] * k + oy) * ratio, s2, faint);
    }
    var s = Math.max(1, Math.round(side * ratio));
    for (var g in groups) {
      var value = pack(rgb(+g), 255), list = groups[g];
      for (var j = 0; j < list.length; j++) {
        i = list[j];
        put((d.xs[i] * k + ox) * ratio, (d.ys[i] * k + oy) * ratio, s, value);
      }
    }
    this.ctx.putImageData(this.image, 0, 0);
  };

  // view: {cx, cy, k}: the world point at the centre and pixels per world unit; the
  // points' bounding box fills the canvas.
  function fit(p, d) {
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (var i = 0; i < d.n; i++) {
      if (d.xs[i] < x0) x0 = d.xs[i];
      if (d.xs[i] > x1) x1 = d.xs[i];
      if (d.ys[i] < y0) y0 = d.ys[i];
      if (d.ys[i] > y1) y1 = d.ys[i];
    }
    if (!(x1 > x0)) { x0 = 0; x1 = 1; }
    if (!(y1 > y0)) { y0 = 0; y1 = 1; }
    return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, k: Math.min(p.w / (x1 - x0), p.h / (y1 - y0)) * 0.92 };
  }

  // Draw the points: shown ones (mask 1) in their topic's colour, the rest faint.
  Painter.prototype.draw = function (d, view, mask, radius, marked) {
    var ctx = this.ctx, w = this.w, h = this.h;
    ctx.clearRect(0, 0, w, h);
    var ox = w / 2 - view.cx * view.k, oy = h / 2 - view.cy * view.k, k = view.k;
    var faint = dark() ? "rgba(255, 255, 255, 0.13)" : "rgba(0, 0, 0, 0.12)";
    var i, x, y;
    // One path per colour: a few dozen fill() calls for 20,000 points.
    var groups = {};
    for (i = 0; i < d.n; i++) {
      if (mask && !mask[i]) continue;
      x = d.xs[i] * k + ox; y = d.ys[i] * k + oy;
      if (x < -radius || y < -radius || x > w + radius || y > h + radius) continue;
      (groups[d.first[i]] || (groups[d.first[i]] = [])).push(i);
    }
    // More than a few hundred points on screen: written into the pixels (discs), which
    // costs a few milliseconds where a path of thousands of arcs took most of a frame (at
    // 50,000 papers zoomed in, 35 ms); fewer: arcs, antialiased.
    var visible = 0;
    for (var c in groups) visible += groups[c].length;
    var square = visible > 600, side = square ? Math.max(1, Math.round(radius * 2)) : radius * 1.8;
    if (mask && !square) {
      ctx.fillStyle = faint;
      for (i = 0; i < d.n; i++) {
        if (mask[i]) continue;
        x = d.xs[i] * k + ox; y = d.ys[i] * k + oy;
        if (x < -2 || y < -2 || x > w + 2 || y > h + 2) continue;
        ctx.fillRect(x - 1, y - 1, 2, 2);
      }
    }
    if (square) {
      this.drawPixels(d, groups, mask, side, ox, oy, k);
      groups = {};  // drawn
    }
    for (var g in groups) {
      var list = groups[g];
      ctx.fillStyle = topicColour(+g);
      ctx.beginPath();
      for (var j = 0; j < list.length; j++) {
        i = list[j];
        x = d.xs[i] * k + ox; y = d.ys[i] * k + oy;
        if (square) {
          ctx.rect(x - side / 2, y - side / 2, side, side);
        } else {
          ctx.moveTo(x + radius, y);
          ctx.arc(x, y, radius, 0, 2 * Math.PI);
        }
      }
      ctx.fill();
    }
    // A few matches among many papers: ringed, so that they stand out of the crowd.
    if (mask && d.n > 50) {
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = dark() ? "rgba(255, 255, 255, 0.85)" : "rgba(0, 0, 0, 0.75)";
      ctx.beginPath();
      var ringed = 0;
      for (i = 0; i < d.n && ringed < 2000; i++) {
        if (!mask[i]) continue;
        ringed++;
        x = d.xs[i] * k + ox; y = d.ys[i] * k + oy;
        ctx.moveTo(x + radius + 2.5, y);
        ctx.arc(x, y, radius + 2.5, 0, 2 * Math.PI);
      }
      if (ringed < 2000) ctx.stroke();
    }
    for (var m = 0; m < (marked || []).length; m++) {
      i = marked[m];
      if (i < 0) continue;
      x = d.xs[i] * k + ox; y = d.ys[i] * k + oy;
      ctx.lineWidth = 2;
      ctx.strokeStyle = dark() ? "#fff" : "#000";
      ctx.beginPath();
      ctx.arc(x, y, radius + 4, 0, 2 * Math.PI);
      ctx.stroke();
    }
  };

  // -- region labels ----------------------------------------------------------

  // Labels name the topic most of a region's papers have, at four grains (4 to 32 cells a
  // side of the unit square): neighbouring cells with the same such topic are one region,
  // labelled at the middle of that topic's papers there. Made once; each frame shows the
  // grain whose cells are about LABEL_CELL_PX wide on screen and places the labels of the
  // most papers first, leaving out any that would overlap one already placed.
  var LABEL_GRAINS = [4, 8, 16, 32], LABEL_CELL_PX = 110, LABEL_FONT = "600 12px sans-serif", MAX_LABELS = 40;

  function regions(d) {
    var T = d.topics.length, levels = [];
    for (var g = 0; g < LABEL_GRAINS.length; g++) {
      var G = LABEL_GRAINS[g], cells = G * G, count = new Int32Array(cells), per = new Int32Array(cells * (T + 1));
      var cellOf = new Int32Array(d.n), i, c;
      for (i = 0; i < d.n; i++) {
        c = Math.min(G - 1, Math.floor(d.ys[i] * G)) * G + Math.min(G - 1, Math.floor(d.xs[i] * G));
        cellOf[i] = c;
        count[c]++;
        per[c * (T + 1) + d.first[i] + 1]++;
      }
      // a cell's topic: the first topic of at least a third of its papers, and of 4 or more
      var top = new Int32Array(cells).fill(-1), least = Math.max(4, d.n / cells / 8);
      for (c = 0; c < cells; c++) {
        if (count[c] < least) continue;
        var best = -1, most = 0;
        for (var t = 0; t < T; t++) if (per[c * (T + 1) + t + 1] > most) { most = per[c * (T + 1) + t + 1]; best = t; }
        if (most >= 4 && most * 3 >= count[c]) top[c] = best;
      }
      // regions: cells joined to their neighbours of the same topic
      var region = new Int32Array(cells).fill(-1), list = [];
      for (c = 0; c < cells; c++) {
        if (top[c] < 0 || region[c] >= 0) continue;
        var id = list.length, stack = [c];
        region[c] = id;
        while (stack.length) {
          var e = stack.pop(), ex = e % G, ey = (e - ex) / G;
          [[ex - 1, ey], [ex + 1, ey], [ex, ey - 1], [ex, ey + 1]].forEach(function (n) {
            if (n[0] < 0 || n[1] < 0 || n[0] >= G || n[1] >= G) return;
            var m = n[1] * G + n[0];
            if (region[m] < 0 && top[m] === top[c]) { region[m] = id; stack.push(m); }
          });
        }
        list.push({ topic: top[c], x: 0, y: 0, n: 0 });
      }
      for (i = 0; i < d.n; i++) {
        var r = region[cellOf[i]];
        if (r >= 0 && d.first[i] === list[r].topic) { list[r].x += d.xs[i]; list[r].y += d.ys[i]; list[r].n++; }
      }
      list.forEach(function (r) { r.x /= r.n; r.y /= r.n; r.text = d.topics[r.topic].name; });
      list.sort(function (a, b) { return b.n - a.n || a.topic - b.topic; });
      levels.push({ grain: G, list: list });
    }
    return levels;
  }

  // The labels of the grain that suits the zoom, placed without overlapping: [{text, x, y, w, h}].
  function placeLabels(ctx, levels, view, w, h, topicShown) {
    var span = view.k, level = levels[0];
    for (var g = 0; g < levels.length; g++) if (span / levels[g].grain >= LABEL_CELL_PX) level = levels[g];
    ctx.font = LABEL_FONT;
    var placed = [], widths = {};
    for (var i = 0; i < level.list.length && placed.length < MAX_LABELS; i++) {
      var r = level.list[i];
      if (topicShown >= 0 && r.topic !== topicShown) continue;
      var x = (r.x - view.cx) * view.k + w / 2, y = (r.y - view.cy) * view.k + h / 2;
      var tw = widths[r.text] || (widths[r.text] = ctx.measureText(r.text).width), th = 14;
      var box = { text: r.text, x: x, y: y, x0: x - tw / 2 - 3, y0: y - th / 2 - 2, x1: x + tw / 2 + 3, y1: y + th / 2 + 2 };
      if (box.x0 < 0 || box.y0 < 0 || box.x1 > w || box.y1 > h) continue;
      var free = true;
      for (var j = 0; j < placed.length && free; j++) {
        var o = placed[j];
        free = box.x1 < o.x0 || box.x0 > o.x1 || box.y1 < o.y0 || box.y0 > o.y1;
      }
      if (free) placed.push(box);
    }
    return placed;
  }

  // Text in the page's colours, with a halo of its background: readable over any points.
  function drawLabels(ctx, canvas, placed) {
    var style = getComputedStyle(canvas);
    ctx.font = LABEL_FONT;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 4;
    ctx.strokeStyle = style.backgroundColor && style.backgroundColor !== "rgba(0, 0, 0, 0)" ? style.backgroundColor : (dark() ? "#1e2129" : "#fff");
    ctx.fillStyle = style.color;
    for (var i = 0; i < placed.length; i++) {
      ctx.strokeText(placed[i].text, placed[i].x, placed[i].y);
      ctx.fillText(placed[i].text, placed[i].x, placed[i].y);
    }
  }

  // -- the preview on the home page -------------------------------------------

  // map.json holds every paper (megabytes at 20,000): fetched only once the preview
  // scrolls into view, not on every visit to the home page.
  function preview(box, root) {
    if (typeof IntersectionObserver === "undefined") return draw(box, root);
    var seen = new IntersectionObserver(function (entries) {
      if (!entries.some(function (e) { return e.isIntersecting; })) return;
      seen.disconnect();
      draw(box, root);
    }, { rootMargin: "200px" });
    seen.observe(box);
  }

  function draw(box, root) {
    var canvas = el("canvas", { "aria-hidden": "true" });
    box.appendChild(canvas);
    fetchMap(root).then(function (d) {
      var p = new Painter(canvas);
      var paint = function () { p.resize(); p.draw(d, fit(p, d), null, 1.4, []); };
      paint();
      new ResizeObserver(paint).observe(canvas);
      onSchemeChange(paint);
    }).catch(function (e) { console.warn("map preview:", e.message); });
  }

  function onSchemeChange(fn) {
    new MutationObserver(fn).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  // -- the map page -----------------------------------------------------------

  function MapPage(box, root, d) {
    this.box = box;
    this.root = root;
    this.d = d;
    this.index = buildIndex(d);
    this.mask = null;
    this.hover = -1;
    this.focus = -1;
    this.frame = 0;
    this.build();
    this.readUrl();
    this.filter(false);
    this.bind();
  }

  // The page's controls, canvas and legend are in its HTML (generator/pages/explore.py), so
  // that they hold their place before this runs: this fills the menus and draws, and no
  // part of the page moves (a layout shift of 0.30 when it built them here).
  MapPage.prototype.build = function () {
    var d = this.d, box = this.box, self = this;
    var q = function (sel) { return box.querySelector(sel); };
    this.topic = q("#digest-map-topic");
    this.venue = q("#digest-map-venue");
    this.q = q("#digest-map-q");
    var zoom = box.querySelectorAll(".digest-map-zoom button");
    this.zoomIn = zoom[0]; this.zoomOut = zoom[1]; this.reset = zoom[2];
    this.status = q(".digest-map-status");
    this.canvas = q(".digest-map-canvas");
    this.tip = q(".digest-map-tip");
    this.card = q(".digest-map-card");
    this.listHead = q("#digest-map-matches");
    this.list = q(".digest-map-list");
    this.said = q("#digest-map-said");
    q(".digest-map-controls").addEventListener("submit", function (e) { e.preventDefault(); });
    var topicOrder = d.topics.map(function (t, i) { return i; }).sort(function (a, b) {
      return d.topics[a].name.localeCompare(d.topics[b].name);
    });
    for (var t = 0; t < topicOrder.length; t++) {
      this.topic.appendChild(el("option", { value: d.topics[topicOrder[t]].slug }, d.topics[topicOrder[t]].name));
    }
    for (var v = 0; v < d.venues.length; v++) this.venue.appendChild(el("option", { value: d.venues[v].slug }, d.venues[v].name));
    this.keys = Array.prototype.slice.call(box.querySelectorAll(".digest-legend-key[data-topic]"));
    this.keys.forEach(function (key) {
      key.addEventListener("click", function () {
        var slug = key.getAttribute("data-topic");
        self.topic.value = self.topic.value === slug ? "" : slug;
        self.filter(true);
      });
    });
    this.painter = new Painter(this.canvas);
    this.painter.resize();
    this.view = fit(this.painter, this.d);
    this.regions = regions(d);
    this.placed = [];
    this.cursor = -1;
  };

  MapPage.prototype.readUrl = function () {
    var params = new URLSearchParams(location.search);
    var d = this.d;
    var slug = params.get("topic") || "";
    this.topic.value = d.topics.some(function (t) { return t.slug === slug; }) ? slug : "";
    var venue = params.get("venue") || "";
    this.venue.value = d.venues.some(function (v) { return v.slug === venue; }) ? venue : "";
    this.q.value = params.get("highlight") || "";
    this.focusOn(params.get("paper") || fragment());
  };

  MapPage.prototype.writeUrl = function () {
    var params = new URLSearchParams();
    if (this.topic.value) params.set("topic", this.topic.value);
    if (this.venue.value) params.set("venue", this.venue.value);
    if (this.q.value.trim()) params.set("highlight", this.q.value.trim());
    if (this.focus >= 0) params.set("paper", this.d.ids[this.focus]);
    var query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
  };

  // The paper named in the URL's fragment: centred, zoomed in, ringed, and named below the map.
  MapPage.prototype.focusOn = function (id) {
    var i = id && id in this.d.byId ? this.d.byId[id] : -1;
    this.focus = i;
    this.card.textContent = "";
    this.card.hidden = i < 0;
    if (i < 0) return;
    this.view = { cx: this.d.xs[i], cy: this.d.ys[i], k: Math.min(this.painter.w, this.painter.h) * 6 };
    this.card.append(el("span", {}, "On the map: "), this.paperLink(i));
  };

  MapPage.prototype.paperLink = function (i) {
    var d = this.d;
    var frag = document.createDocumentFragment();
    frag.append(el("a", { href: new URL("papers/" + d.ids[i] + "/", this.root).href }, d.titles[i]));
    frag.append(document.createTextNode(" \u00b7 " + d.venues[d.venue[i]].name));
    return frag;
  };

  MapPage.prototype.filter = function (write) {
    var d = this.d;
    // Each read of a <select>'s value walks its options to the chosen one: read once, not
    // once per venue (33,000 venues and the last chosen took 30 s a keystroke).
    var topic = -1, venue = -1, topicSlug = this.topic.value, venueSlug = this.venue.value;
    for (var t = 0; t < d.topics.length; t++) if (d.topics[t].slug === topicSlug) topic = t;
    for (var v = 0; v < d.venues.length; v++) if (d.venues[v].slug === venueSlug) venue = v;
    // A topic holds the papers of the topics inside it (parent: a slug), as its page does.
    var inside = new Uint8Array(d.topics.length);
    if (topic >= 0) {
      for (var k = 0; k < d.topics.length; k++) {
        for (var at = d.topics[k], steps = 0; at && steps <= d.topics.length; steps++) {
          if (at.slug === topicSlug) { inside[k] = 1; break; }
          at = at.parent ? d.topics.find(function (u) { return u.slug === at.parent; }) : null;
        }
      }
    }
    var terms = highlightTerms(this.q.value);
    var texts = terms.length ? words(d) : null;
    var shown = 0, mask = null, matches = [];
    if (topic >= 0 || venue >= 0 || terms.length) {
      mask = new Uint8Array(d.n);
      for (var i = 0; i < d.n; i++) {
        if (venue >= 0 && d.venue[i] !== venue) continue;
        if (topic >= 0 && !d.topicsOf[i].some(function (t) { return inside[t]; })) continue;
        var ok = true;
        for (var w = 0; w < terms.length && ok; w++) ok = texts[i].indexOf(" " + terms[w]) >= 0;
        if (!ok) continue;
        mask[i] = 1;
        shown++;
        matches.push(i);
      }
    } else {
      shown = d.n;
    }
    this.mask = mask;
    this.topicShown = topic;
    for (var k = 0; k < this.keys.length; k++) this.keys[k].setAttribute("aria-pressed", String(this.keys[k].getAttribute("data-topic") === topicSlug));
    this.status.textContent = (mask ? shown.toLocaleString("en") + " of " : "") + d.n.toLocaleString("en") +
      " papers" + (mask ? " match" : "") + (topic >= 0 ? " in " + d.topics[topic].name : "") +
      (venue >= 0 ? " at " + d.venues[venue].name : "") + (terms.length ? " with \u201c" + terms.join(" ") + "\u201d" : "") + ".";
    this.listMatches(mask ? matches : []);
    if (write) this.writeUrl();
    this.redraw();
  };

  // The matching papers as links: what the map shows, reachable without a pointer.
  MapPage.prototype.listMatches = function (matches) {
    var d = this.d;
    this.list.textContent = "";
    this.listHead.hidden = matches.length === 0;
    if (!matches.length) return;
    matches.sort(function (a, b) { return d.titles[a].localeCompare(d.titles[b]); });
    this.listHead.textContent = matches.length > MAX_LISTED ? "The first " + MAX_LISTED + " of these papers, by title" : "These papers, by title";
    for (var m = 0; m < Math.min(MAX_LISTED, matches.length); m++) {
      var li = el("li");
      li.appendChild(this.paperLink(matches[m]));
      this.list.appendChild(li);
    }
  };

  MapPage.prototype.radius = function () {
    var r = 1.6 + Math.log2(Math.max(1, this.view.k / Math.min(this.painter.w, this.painter.h))) * 0.9;
    return Math.min(6, Math.max(1.6, r)) * (this.d.n < 2000 ? 1.6 : 1);
  };

  MapPage.prototype.redraw = function () {
    var self = this;
    if (this.frame) return;
    this.frame = requestAnimationFrame(function () {
      self.frame = 0;
      self.painter.draw(self.d, self.view, self.mask, self.radius(), [self.focus, self.hover, self.cursor]);
      var p = self.painter;
      self.placed = placeLabels(p.ctx, self.regions, self.view, p.w, p.h, self.topicShown);
      drawLabels(p.ctx, self.canvas, self.placed);
    });
  };

  MapPage.prototype.toWorld = function (px, py) {
    var p = this.painter, v = this.view;
    return [(px - p.w / 2) / v.k + v.cx, (py - p.h / 2) / v.k + v.cy];
  };

  // The shown point nearest to the pointer, within HOVER_PX.
  MapPage.prototype.pick = function (px, py) {
    var d = this.d, world = this.toWorld(px, py);
    var reach = (HOVER_PX + this.radius()) / this.view.k;
    var x0 = Math.max(0, Math.floor((world[0] - reach) * GRID)), x1 = Math.min(GRID - 1, Math.floor((world[0] + reach) * GRID));
    var y0 = Math.max(0, Math.floor((world[1] - reach) * GRID)), y1 = Math.min(GRID - 1, Math.floor((world[1] + reach) * GRID));
    var best = -1, bestD = reach * reach;
    for (var cy = y0; cy <= y1; cy++) {
      for (var cx = x0; cx <= x1; cx++) {
        var c = cy * GRID + cx;
        for (var j = this.index.starts[c]; j < this.index.starts[c + 1]; j++) {
          var i = this.index.order[j];
          if (this.mask && !this.mask[i]) continue;
          var dx = d.xs[i] - world[0], dy = d.ys[i] - world[1], dist = dx * dx + dy * dy;
          if (dist <= bestD) { bestD = dist; best = i; }
        }
      }
    }
    return best;
  };

  // ``how`` (optional): what opens the paper, said under its title (a tap, Enter).
  MapPage.prototype.showTip = function (i, px, py, how) {
    var d = this.d;
    this.hover = i;
    this.canvas.style.cursor = i >= 0 ? "pointer" : "";
    if (i < 0) { this.tip.hidden = true; this.redraw(); return; }
    this.tip.textContent = "";
    var names = d.topicsOf[i].map(function (t) { return d.topics[t].name; }).join(", ");
    this.tip.append(el("strong", {}, d.titles[i]), el("span", {}, d.venues[d.venue[i]].name + (names ? " \u00b7 " + names : "")));
    if (how) this.tip.append(el("em", {}, how));
    this.tip.hidden = false;
    var w = this.painter.w, left = Math.min(px + 14, w - this.tip.offsetWidth - 4);
    this.tip.style.left = Math.max(4, left) + "px";
    this.tip.style.top = (py + 16 + this.tip.offsetHeight > this.painter.h ? py - 12 - this.tip.offsetHeight : py + 16) + "px";
    this.redraw();
  };

  MapPage.prototype.zoomAt = function (factor, px, py) {
    var p = this.painter, before = this.toWorld(px, py);
    var min = Math.min(p.w, p.h) * 0.5, max = Math.min(p.w, p.h) * 400;
    this.view.k = Math.min(max, Math.max(min, this.view.k * factor));
    var after = this.toWorld(px, py);
    this.view.cx += before[0] - after[0];
    this.view.cy += before[1] - after[1];
    this.redraw();
  };

  MapPage.prototype.panBy = function (dx, dy) {
    this.view.cx -= dx / this.view.k;
    this.view.cy -= dy / this.view.k;
    this.redraw();
  };

  MapPage.prototype.open = function (i) {
    location.href = new URL("papers/" + this.d.ids[i] + "/", this.root).href;
  };

  // Move the keyboard's cursor to the nearest shown paper in direction (dx, dy), within a
  // cone of 45 degrees either side; with no cursor yet, to the shown paper nearest the middle.
  MapPage.prototype.stepTo = function (dx, dy) {
    var d = this.d, from = this.cursor, best = -1, bestScore = Infinity;
    var ox = from >= 0 ? d.xs[from] : this.view.cx, oy = from >= 0 ? d.ys[from] : this.view.cy;
    for (var i = 0; i < d.n; i++) {
      if (i === from || (this.mask && !this.mask[i])) continue;
      var ex = d.xs[i] - ox, ey = d.ys[i] - oy, score;
      if (from >= 0) {
        var along = ex * dx + ey * dy, across = Math.abs(ex * dy - ey * dx);
        if (along <= 0 || across > along) continue;
        score = along + 2 * across;
      } else {
        score = ex * ex + ey * ey;
      }
      if (score < bestScore) { bestScore = score; best = i; }
    }
    if (best < 0) return;
    this.cursor = best;
    var p = this.painter, x = (d.xs[best] - this.view.cx) * this.view.k + p.w / 2, y = (d.ys[best] - this.view.cy) * this.view.k + p.h / 2;
    if (x < 40 || y < 40 || x > p.w - 40 || y > p.h - 40) {  // keep it on screen
      this.view.cx = d.xs[best]; this.view.cy = d.ys[best];
      x = p.w / 2; y = p.h / 2;
    }
    this.showTip(best, x, y, "Enter opens the paper.");
    this.said.textContent = d.titles[best] + ", " + d.venues[d.venue[best]].name;
  };

  MapPage.prototype.bind = function () {
    var self = this, canvas = this.canvas, pointers = new Map(), moved = 0, pinch = null;
    var local = function (e) { var r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
    this.topic.addEventListener("change", function () { self.filter(true); });
    this.venue.addEventListener("change", function () { self.filter(true); });
    this.q.addEventListener("input", function () { self.filter(true); });
    this.zoomIn.addEventListener("click", function () { self.zoomAt(1.5, self.painter.w / 2, self.painter.h / 2); });
    this.zoomOut.addEventListener("click", function () { self.zoomAt(1 / 1.5, self.painter.w / 2, self.painter.h / 2); });
    this.reset.addEventListener("click", function () { self.view = fit(self.painter, self.d); self.redraw(); });
    window.addEventListener("hashchange", function () { self.focusOn(fragment()); self.redraw(); });
    canvas.addEventListener("wheel", function (e) {
      e.preventDefault();
      var at = local(e);
      self.zoomAt(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)), at[0], at[1]);
    }, { passive: false });
    canvas.addEventListener("pointerdown", function (e) {
      try {
        canvas.setPointerCapture(e.pointerId);
      } catch (err) { /* a pointer that is already gone (or a synthetic one): nothing to capture */ }
      pointers.set(e.pointerId, local(e));
      moved = 0;
      pinch = null;
    });
    canvas.addEventListener("pointermove", function (e) {
      var at = local(e);
      if (!pointers.has(e.pointerId)) {
        if (e.pointerType === "mouse") self.showTip(self.pick(at[0], at[1]), at[0], at[1]);
        return;
      }
      var last = pointers.get(e.pointerId);
      pointers.set(e.pointerId, at);
      if (pointers.size === 1) {
        moved += Math.abs(at[0] - last[0]) + Math.abs(at[1] - last[1]);
        self.panBy(at[0] - last[0], at[1] - last[1]);
        if (moved > 4) self.showTip(-1);
      } else if (pointers.size === 2) {
        var pts = Array.from(pointers.values());
        var mid = [(pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2];
        var span = Math.hypot(pts[0][0] - pts[1][0], pts[0][1] - pts[1][1]);
        if (pinch) {
          self.panBy(mid[0] - pinch.mid[0], mid[1] - pinch.mid[1]);
          if (pinch.span > 0) self.zoomAt(span / pinch.span, mid[0], mid[1]);
        }
        pinch = { mid: mid, span: span };
        moved = 100;
      }
    });
    var up = function (e) {
      if (!pointers.has(e.pointerId)) return;
      pointers.delete(e.pointerId);
      pinch = null;
      if (e.type !== "pointerup" || pointers.size || moved > 4) return;
      var at = local(e), i = self.pick(at[0], at[1]);
      if (i < 0) return;
      // A mouse opens the paper under it; a finger first shows which paper it is, then opens it.
      if (e.pointerType === "mouse" || self.hover === i) self.open(i);
      else self.showTip(i, at[0], at[1], "Tap again to open the paper.");
    };
    canvas.addEventListener("pointerup", up);
    canvas.addEventListener("pointercancel", up);
    canvas.addEventListener("pointerleave", function (e) { if (e.pointerType === "mouse") self.showTip(-1); });
    // The keyboard's way to the papers: the arrows go to the nearest shown paper that way
    // (the map follows it), Enter opens it; shift and the arrows move the map.
    canvas.addEventListener("keydown", function (e) {
      var step = 60, dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      var keys = {
        "+": function () { self.zoomAt(1.5, self.painter.w / 2, self.painter.h / 2); },
        "=": function () { self.zoomAt(1.5, self.painter.w / 2, self.painter.h / 2); },
        "-": function () { self.zoomAt(1 / 1.5, self.painter.w / 2, self.painter.h / 2); },
        "0": function () { self.view = fit(self.painter, self.d); self.redraw(); },
        Enter: function () { if (self.cursor >= 0) self.open(self.cursor); },
        Escape: function () { self.cursor = -1; self.showTip(-1); },
      };
      if (dirs[e.key]) {
        e.preventDefault();
        if (e.shiftKey) self.panBy(-dirs[e.key][0] * step, -dirs[e.key][1] * step);
        else self.stepTo(dirs[e.key][0], dirs[e.key][1]);
      } else if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
    canvas.addEventListener("blur", function () { if (self.cursor >= 0) { self.cursor = -1; self.showTip(-1); } });
    new ResizeObserver(function () {
      var w = self.painter.w;
      self.painter.resize();
      if (w > 0) self.view.k *= self.painter.w / w;
      self.redraw();
    }).observe(canvas);
    onSchemeChange(function () { self.redraw(); });
  };

  function start() {
    var root = siteRoot();
    var previews = document.querySelectorAll(".digest-map-preview");
    for (var i = 0; i < previews.length; i++) preview(previews[i], root);
    var box = document.getElementById("digest-map");
    if (!box) return;
    fetchMap(root).then(function (d) {
      window.digestMap = new MapPage(box, root, d);
      box.setAttribute("data-ready", "");
    }).catch(function (e) {
      var said = box.querySelector(".digest-map-fallback") || box.appendChild(el("p"));
      said.setAttribute("role", "alert");
      said.textContent = "The map could not be loaded (" + e.message + "). The topic and venue pages list every paper.";
      var status = box.querySelector(".digest-map-status");
      if (status) status.textContent = "";
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
