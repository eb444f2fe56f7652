// Sortable, filterable tables. Cells carry their sort key in data-v (numbers; empty for no value).
(function () {
  "use strict";

  function key(cell) {
    var v = cell.getAttribute("data-v");
    if (v === null) return cell.textContent.trim().toLowerCase();
    return v === "" ? null : parseFloat(v);
  }

  function compare(a, b, dir) {
    if (a === null && b === null) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    if (a < b) return -dir;
    if (a > b) return dir;
    return 0;
  }

  function sortBy(table, column, th) {
    var numeric = th.getAttribute("data-kind") !== "text";
    var current = th.getAttribute("aria-sort");
    var dir = current ? (current === "ascending" ? -1 : 1) : (numeric ? -1 : 1);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r1, r2) { return compare(key(r1.cells[column]), key(r2.cells[column]), dir); });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
  }

  function showCount(table, shown) {
    var label = document.querySelector('.count[data-table="' + table.id + '"]');
    if (label) label.textContent = shown + " of " + table.tBodies[0].rows.length + " rows";
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      th.tabIndex = 0;
      th.addEventListener("click", function () { sortBy(table, column, th); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(table, column, th); }
      });
    });
    showCount(table, table.tBodies[0].rows.length);
  });

  // Filters: the dropdowns (form, deck, player level) over every row and trend line that carries those
  // values, and each table's own words. The view lives in location.hash (form=..&deck=..&player=..&card=..),
  // so a link reproduces it.
  var facets = Array.prototype.slice.call(document.querySelectorAll("select.facet"));
  var panel = document.getElementById("card-panel");
  var state = {};

  function tableWords(table) {
    var input = document.querySelector('input.filter[data-table="' + table.id + '"]');
    return input ? input.value.toLowerCase().split(/\s+/).filter(Boolean) : [];
  }

  function rowShown(row, words) {
    var text = words.length ? row.textContent.toLowerCase() : "";
    return facets.every(function (s) {
      var v = row.getAttribute("data-" + s.getAttribute("data-key"));
      return !s.value || v === null || v === s.value;
    }) && words.every(function (w) { return text.indexOf(w) >= 0; });
  }

  function filterTable(table) {
    var words = tableWords(table);
    var shown = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      row.hidden = !rowShown(row, words);
      if (!row.hidden) shown += 1;
    });
    showCount(table, shown);
  }

  function filterAll() {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), filterTable);
    Array.prototype.forEach.call(document.querySelectorAll("g.series"), function (g) {
      g.style.display = rowShown(g, []) ? "" : "none";
    });
  }

  function pageOf(card) {
    var pages = panel ? panel.querySelectorAll("article.card-page") : [];
    return Array.prototype.filter.call(pages, function (p) { return p.getAttribute("data-card-page") === card; })[0];
  }

  function showCard(card) {
    if (!panel) return;
    var page = card ? pageOf(card) : null;
    Array.prototype.forEach.call(panel.querySelectorAll("article.card-page"), function (p) { p.hidden = p !== page; });
    if (page && !panel.open) {
      if (panel.showModal) panel.showModal(); else panel.setAttribute("open", "");
    } else if (!page && panel.open) {
      panel.close();
    }
    state.card = page ? card : "";
  }

  function serialize() {
    var parts = [];
    facets.forEach(function (s) { if (s.value) parts.push(s.getAttribute("data-name") + "=" + enc(s.value)); });
    if (state.card) parts.push("card=" + enc(state.card));
    if (state.at) parts.push("at=" + enc(state.at));
    return parts.join("&");
  }

  function enc(v) { return encodeURIComponent(v).replace(/%2F/g, "/"); }

  var written = null;
  function save() {
    var hash = serialize();
    written = hash;
    document.documentElement.setAttribute("data-view", hash);
    if (location.hash.replace(/^#/, "") !== hash) location.replace("#" + hash);
  }

  function restore() {
    var hash = location.hash.replace(/^#/, "");
    if (hash === written) return;
    if (hash && hash.indexOf("=") < 0) hash = "at=" + hash;  // a plain anchor: the place, no filters
    var params = {};
    hash.split("&").filter(Boolean).forEach(function (pair) {
      var at = pair.indexOf("=");
      try { params[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1)); } catch (e) { /* ignored */ }
    });
    facets.forEach(function (s) {
      var v = params[s.getAttribute("data-name")] || "";
      var known = Array.prototype.some.call(s.options, function (o) { return o.value === v; });
      s.value = known ? v : "";
    });
    filterAll();
    showCard(params.card || "");
    goTo(params.at || "");
    save();
  }

  // A place in the page (a contents link) is part of the view too, so a shared link keeps the filters and
  // opens at the same section.
  function goTo(id) {
    var target = id ? document.getElementById(id) : null;
    state.at = target ? id : "";
    if (target && target.scrollIntoView) target.scrollIntoView();
  }

  facets.forEach(function (s) { s.addEventListener("change", function () { filterAll(); save(); }); });
  Array.prototype.forEach.call(document.querySelectorAll("input.filter"), function (input) {
    var table = document.getElementById(input.getAttribute("data-table"));
    input.addEventListener("input", function () { filterTable(table); });
  });
  document.addEventListener("click", function (e) {
    var place = e.target.closest ? e.target.closest("a[href^='#']:not(.card-link)") : null;
    if (place && place.getAttribute("href").indexOf("=") < 0) {
      e.preventDefault();
      goTo(place.getAttribute("href").slice(1));
      save();
      return;
    }
    var link = e.target.closest ? e.target.closest("a.card-link") : null;
    if (!link) return;
    e.preventDefault();
    showCard(link.getAttribute("data-card"));
    save();
  });
  if (panel) panel.addEventListener("close", function () { showCard(""); save(); });
  window.addEventListener("hashchange", restore);
  restore();

  document.documentElement.setAttribute("data-ready", "yes");
})();
