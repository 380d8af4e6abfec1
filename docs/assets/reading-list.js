// The reading list: a star beside every paper (its page, the lists; search.js stars results)
// keeps it in this browser's localStorage, and the /reading-list/ page shows the
// starred papers, exports them as Markdown or JSON and imports that JSON back.
// Nothing leaves the browser. Every string from storage, an imported file or
// map.json is set as textContent; no HTML is ever built from data.
(function () {
  "use strict";

  var KEY = "ml-paper-digest.reading-list";
  var FORMAT = "ml-paper-digest-reading-list";
  var ID = /^[0-9a-f]{12}$/;
  var PAPER_PATH = /\/papers\/([0-9a-f]{12})\/(?:index\.html)?$/;
  var MAX_TEXT = 400;

  function siteRoot() {
    var base = ".";
    try {
      base = JSON.parse(document.getElementById("__config").textContent).base || ".";
    } catch (e) { /* no Material config: this page is the root */ }
    return new URL(base.replace(/\/?$/, "/"), location.href);
  }
  var root = siteRoot();

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function paperUrl(id) {
    return new URL("papers/" + id + "/", root).href;
  }

  // -- storage: {version: 1, papers: [{id, title, venue, added}]} ---------------

  function clean(s) {
    return typeof s === "string" ? s.slice(0, MAX_TEXT) : "";
  }

  function load() {
    try {
      var data = JSON.parse(localStorage.getItem(KEY) || "null");
      if (data && Array.isArray(data.papers)) {
        return data.papers.filter(function (p) { return p && ID.test(p.id); }).map(function (p) {
          return { id: p.id, title: clean(p.title), venue: clean(p.venue), added: clean(p.added) };
        });
      }
    } catch (e) { /* unreadable storage: an empty list, rewritten on the next star */ }
    return [];
  }

  var starred = null; // the starred ids, read once per change: a list page has thousands of stars

  // Whether the list was stored. A write the browser refuses (the origin's storage is full:
  // on GitHub Pages every project site of an owner shares one origin; or storage is off)
  // is told to the reader in the page, and the stars keep showing what is stored.
  function save(papers) {
    starred = null;
    var problem = "";
    try {
      localStorage.setItem(KEY, JSON.stringify({ version: 1, papers: papers }));
    } catch (e) {
      problem = storageProblem(e);
    }
    refresh();
    tell(problem);
    return !problem;
  }

  function storageProblem(e) {
    var full = e && (e.name === "QuotaExceededError" || e.name === "NS_ERROR_DOM_QUOTA_REACHED" || e.code === 22);
    return "Your reading list was not changed: " + (full
      ? "this browser's storage for this site is full (sites on the same domain share it). " +
        "Remove papers from the list, or clear other data this browser keeps for the domain."
      : "this browser does not let this site keep data (" + ((e && e.message) || e) + ").");
  }

  // One notice per page, above its content, shown while the last write failed.
  var notice = null;
  function tell(text) {
    if (!notice) {
      if (!text) return;
      notice = el("p", { class: "digest-storage-alert", role: "alert" });
      var where = document.querySelector("article") || document.body;
      where.insertBefore(notice, where.firstChild);
    }
    notice.textContent = text;
    notice.hidden = !text;
  }

  function has(id) {
    if (!starred) starred = new Set(load().map(function (p) { return p.id; }));
    return starred.has(id);
  }

  function toggle(id, meta) {
    var papers = load();
    var kept = papers.filter(function (p) { return p.id !== id; });
    if (kept.length === papers.length) {
      kept.push({ id: id, title: clean(meta.title), venue: clean(meta.venue), added: new Date().toISOString().slice(0, 10) });
    }
    save(kept);
  }

  // -- stars --------------------------------------------------------------------

  function starButton(id, meta) {
    var button = el("button", { type: "button", class: "digest-star", "data-paper": id });
    button.appendChild(el("span", { "aria-hidden": "true" }));
    button.addEventListener("click", function (e) {
      e.preventDefault();
      e.stopPropagation();
      toggle(id, typeof meta === "function" ? meta() : meta);
    });
    paint(button);
    return button;
  }

  function paint(button) {
    var on = has(button.getAttribute("data-paper"));
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.setAttribute("aria-label", on ? "Starred: in the reading list" : "Star: add to the reading list");
    button.title = on ? "Remove from the reading list" : "Add to the reading list";
    button.firstChild.textContent = on ? "\u2605" : "\u2606";
  }

  function refresh() {
    var buttons = document.querySelectorAll("button.digest-star");
    for (var i = 0; i < buttons.length; i++) paint(buttons[i]);
    if (page) page.render();
  }

  function idOf(href) {
    try {
      var m = PAPER_PATH.exec(new URL(href, location.href).pathname);
      return m ? m[1] : null;
    } catch (e) {
      return null;
    }
  }

  // A paper's own page: a star after its title.
  function decoratePaperPage() {
    var id = idOf(location.href);
    var h1 = document.querySelector("article h1");
    if (!id || !h1 || h1.querySelector(".digest-star")) return;
    var meta = document.querySelector(".digest-meta a");
    h1.appendChild(starButton(id, function () {
      return { title: h1.firstChild ? h1.firstChild.textContent.trim() : "", venue: meta ? meta.textContent.trim() : "" };
    }));
  }

  // Lists (home, topics, venues, all papers, the map's matches): a star after each paper's link.
  function decorateLists(scope) {
    var links = scope.querySelectorAll("article li > a[href]");
    for (var i = 0; i < links.length; i++) {
      var a = links[i], id = idOf(a.getAttribute("href"));
      if (!id || (a.nextSibling && a.nextSibling.className === "digest-star")) continue;
      a.parentNode.insertBefore(starButton(id, { title: a.textContent.trim(), venue: "" }), a.nextSibling);
    }
  }

  // -- the reading list page -------------------------------------------------------

  function ReadingList(box) {
    this.box = box;
    this.map = null;
    this.failed = "";
    var self = this;
    box.textContent = "";
    this.summary = el("p", { class: "digest-reading-summary" });
    this.list = el("ol", { class: "digest-reading-items" });
    var tools = el("div", { class: "digest-reading-tools" });
    var md = el("button", { type: "button", class: "md-button" }, "Export as Markdown");
    var js = el("button", { type: "button", class: "md-button" }, "Export as JSON");
    var label = el("label", { class: "md-button", for: "digest-reading-import" }, "Import JSON\u2026");
    this.file = el("input", { type: "file", id: "digest-reading-import", accept: ".json,application/json", class: "digest-sr-only" });
    tools.append(md, js, label, this.file);
    this.message = el("p", { class: "digest-reading-message", role: "status", "aria-live": "polite" });
    this.error = el("p", { class: "digest-reading-error", role: "alert" });
    box.append(this.summary, this.list, tools, this.message, this.error);
    md.addEventListener("click", function () { download("reading-list.md", "text/markdown", self.markdown()); });
    js.addEventListener("click", function () { download("reading-list.json", "application/json", self.json()); });
    this.file.addEventListener("change", function () {
      var f = self.file.files[0];
      if (!f) return;
      f.text().then(function (text) { self.importText(text, f.name); }).finally(function () { self.file.value = ""; });
    });
    fetch(new URL("map.json", root)).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (data) {
      var byId = Object.create(null);  // no inherited names: see map.js
      data.papers.forEach(function (row) {
        byId[row[0]] = { id: row[0], title: row[5], venue: data.venues[row[4]].name };
      });
      for (var alias in data.aliases || {}) if (data.aliases[alias] in byId) byId[alias] = byId[data.aliases[alias]];
      self.map = byId;
    }).catch(function (e) {
      self.failed = e.message;
    }).finally(function () {
      self.render();
      box.setAttribute("data-ready", "");
    });
  }

  // A starred paper as the digest has it now, or null when it has left the digest.
  ReadingList.prototype.current = function (p) {
    if (!this.map) return { id: p.id, title: p.title || p.id, venue: p.venue };
    return this.map[p.id] || null;
  };

  ReadingList.prototype.render = function () {
    var papers = load(), self = this;
    this.list.textContent = "";
    var gone = 0;
    papers.forEach(function (p) {
      var now = self.current(p), li = el("li");
      if (now) {
        li.append(el("a", { href: paperUrl(now.id) }, now.title));
        if (now.venue) li.append(document.createTextNode(" \u00b7 " + now.venue));
        li.append(starButton(p.id, { title: now.title, venue: now.venue }));
      } else {
        gone++;
        li.className = "digest-gone";
        li.append(el("span", { class: "digest-gone-title" }, p.title || p.id));
        li.append(document.createTextNode(" \u00b7 "));
        li.append(el("strong", {}, "no longer in the digest"));
        li.append(document.createTextNode(" (paper id "), el("code", {}, p.id), document.createTextNode(") "));
        var remove = el("button", { type: "button", class: "digest-remove" }, "Remove");
        remove.addEventListener("click", function () { save(load().filter(function (q) { return q.id !== p.id; })); });
        li.append(remove);
      }
      self.list.append(li);
    });
    var n = papers.length;
    this.summary.textContent = n === 0
      ? "No papers yet: star a paper to add it."
      : n + (n === 1 ? " paper" : " papers") + " in your reading list" + (gone ? ", " + gone + " of them no longer in the digest" : "") + ".";
    if (this.failed) this.summary.textContent += " (The digest's paper list could not be loaded: " + this.failed + "; titles are as they were when starred.)";
  };

  function mdEscape(s) {
    return s.replace(/[\\`*_{}\[\]()<>#+!|~-]/g, "\\$&");
  }

  ReadingList.prototype.entries = function () {
    var self = this;
    return load().map(function (p) {
      var now = self.current(p);
      return { id: p.id, title: now ? now.title : p.title, venue: now ? now.venue : p.venue, url: paperUrl(now ? now.id : p.id), added: p.added, gone: !now };
    });
  };

  ReadingList.prototype.markdown = function () {
    var lines = ["# Reading list", ""];
    this.entries().forEach(function (e) {
      lines.push("- [" + mdEscape(e.title || e.id) + "](" + e.url + ")" + (e.venue ? " · " + mdEscape(e.venue) : "") +
        (e.gone ? " (no longer in the digest)" : ""));
    });
    return lines.join("\n") + "\n";
  };

  ReadingList.prototype.json = function () {
    var papers = this.entries().map(function (e) {
      return { id: e.id, title: e.title, venue: e.venue, url: e.url, added: e.added };
    });
    return JSON.stringify({ format: FORMAT, version: 1, papers: papers }, null, 2) + "\n";
  };

  // Validate the whole file before taking anything from it; a problem names the entry.
  function parseImport(text) {
    var data;
    try {
      data = JSON.parse(text);
    } catch (e) {
      return { error: "This file is not JSON (" + e.message + "). Import a file exported from this reading list." };
    }
    if (!data || typeof data !== "object" || Array.isArray(data) || data.format !== FORMAT || !Array.isArray(data.papers)) {
      return { error: "This JSON is not a reading list: it needs \"format\": \"" + FORMAT + "\" and a list of \"papers\"." };
    }
    var problems = [], papers = [];
    data.papers.forEach(function (p, i) {
      var where = "paper " + (i + 1);
      if (!p || typeof p !== "object" || Array.isArray(p)) return problems.push(where + " is not an object");
      if (typeof p.id !== "string" || !ID.test(p.id)) return problems.push(where + ": \"id\" must be a paper id (12 hex digits)");
      for (var k of ["title", "venue", "added"]) {
        if (p[k] !== undefined && typeof p[k] !== "string") return problems.push(where + ": \"" + k + "\" must be text");
      }
      papers.push({ id: p.id, title: clean(p.title), venue: clean(p.venue), added: clean(p.added) });
    });
    if (problems.length) {
      return { error: "Nothing was imported: " + problems.slice(0, 5).join("; ") + (problems.length > 5 ? "; and " + (problems.length - 5) + " more" : "") + "." };
    }
    return { papers: papers };
  }

  ReadingList.prototype.importText = function (text, name) {
    var result = parseImport(text);
    this.error.textContent = "";
    this.message.textContent = "";
    if (result.error) {
      this.error.textContent = name + ": " + result.error;
      return;
    }
    var papers = load(), known = {}, added = 0;
    papers.forEach(function (p) { known[p.id] = true; });
    result.papers.forEach(function (p) {
      if (known[p.id]) return;
      known[p.id] = true;
      papers.push(p);
      added++;
    });
    if (!save(papers)) {
      this.error.textContent = name + ": nothing was imported. " + notice.textContent;
      return;
    }
    // What storage now holds, not what was asked of it
    var stored = new Set(load().map(function (p) { return p.id; }));
    var kept = result.papers.filter(function (p) { return stored.has(p.id); }).length;
    var skipped = result.papers.length - added;
    kept -= skipped;
    this.message.textContent = "Imported " + kept + (kept === 1 ? " paper" : " papers") + " from " + name +
      (skipped ? " (" + skipped + " already in the list)" : "") + ".";
    if (kept < added) this.error.textContent = name + ": " + (added - kept) + " of its papers could not be kept.";
  };

  function download(name, type, text) {
    var url = URL.createObjectURL(new Blob([text], { type: type + ";charset=utf-8" }));
    var a = el("a", { href: url, download: name });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  var page = null;

  function start() {
    decoratePaperPage();
    decorateLists(document);
    var box = document.getElementById("digest-reading-list");
    if (box) page = new ReadingList(box);
    // The map lists its matches after loading: star them too.
    var matches = document.querySelector("#digest-map");
    if (matches) new MutationObserver(function () { decorateLists(matches); }).observe(matches, { childList: true, subtree: true });
    window.addEventListener("storage", function (e) {
      if (e.key === KEY) { starred = null; refresh(); }
    });
  }

  // has and toggle: the search results' stars (assets/search.js).
  window.digestReadingList = { parseImport: parseImport, has: has, toggle: toggle };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
