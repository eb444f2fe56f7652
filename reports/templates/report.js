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

  Array.prototype.forEach.call(document.querySelectorAll("input.filter"), function (input) {
    var table = document.getElementById(input.getAttribute("data-table"));
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var text = row.textContent.toLowerCase();
        var match = words.every(function (w) { return text.indexOf(w) >= 0; });
        row.hidden = !match;
        if (match) shown += 1;
      });
      showCount(table, shown);
    });
  });

  document.documentElement.setAttribute("data-ready", "yes");
})();
