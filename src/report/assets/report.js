// crd report: draws the tables from the page's JSON data and runs the human-assisted pruning
// (benign marks and categories per chunk, kept in localStorage by run id, exported as a stop list
// and a CSV) and the row marks of other tables (near-duplicate pages marked as the original or not
// a copy, exported as CSV; quilted pages marked benign, exported as a URL list). Every piece of data reaches the page through textContent or setAttribute on
// non-URL attributes only: never innerHTML, so text from web pages cannot become markup.
(function () {
  "use strict";

  const DATA = JSON.parse(document.getElementById("crd-data").textContent);
  const STORE_KEY = "crd-report:" + DATA.runId;
  const HEX40 = /^[0-9a-f]{40}$/;
  const intFormat = new Intl.NumberFormat("en-US");
  const tablesById = Object.create(null);
  const sampleByHash = Object.create(null);  // hash → sample, from every chunk table on the page
  const views = [];

  // ---- saved marks -------------------------------------------------------------------------
  const state = loadState();

  function loadState() {
    const empty = { marks: Object.create(null), categories: [], rowMarks: Object.create(null) };
    let saved = null;
    try {
      saved = JSON.parse(window.localStorage.getItem(STORE_KEY) || "null");
    } catch (e) {
      return empty;  // storage disabled or unreadable: marks live for this visit only
    }
    if (!saved || typeof saved !== "object") return empty;
    if (saved.marks && typeof saved.marks === "object") {
      for (const hash of Object.keys(saved.marks)) {
        const m = saved.marks[hash];
        if (!HEX40.test(hash) || !m || typeof m !== "object") continue;
        empty.marks[hash] = { benign: m.benign === true, category: typeof m.category === "string" ? m.category : "" };
      }
    }
    if (Array.isArray(saved.categories))
      empty.categories = saved.categories.filter((c) => typeof c === "string" && c.length > 0);
    // Row marks: only tables of this page, and only the choices each offers.
    if (saved.rowMarks && typeof saved.rowMarks === "object") {
      for (const spec of DATA.tables) {
        const kept = saved.rowMarks[spec.id];
        if (!spec.marks || !kept || typeof kept !== "object") continue;
        empty.rowMarks[spec.id] = Object.create(null);
        for (const key of Object.keys(kept))
          if (spec.marks.choices.includes(kept[key])) empty.rowMarks[spec.id][key] = kept[key];
      }
    }
    return empty;
  }

  function saveState() {
    try {
      window.localStorage.setItem(STORE_KEY, JSON.stringify({ marks: state.marks, categories: state.categories,
        rowMarks: state.rowMarks }));
    } catch (e) {
      setStatus("Marks could not be saved in this browser (storage unavailable); export them before closing.");
    }
  }

  function mark(hash) {
    return state.marks[hash] || { benign: false, category: "" };
  }

  function setMark(hash, change) {
    if (!HEX40.test(hash)) return;
    const m = Object.assign({}, mark(hash), change);
    if (!m.benign && !m.category) delete state.marks[hash];
    else state.marks[hash] = m;
    saveState();
    refreshAll();
  }

  function rowMark(tableId, key) {
    const marks = state.rowMarks[tableId];
    return marks && Object.prototype.hasOwnProperty.call(marks, key) ? marks[key] : "";
  }

  function setRowMark(tableId, key, choice) {
    if (!state.rowMarks[tableId]) state.rowMarks[tableId] = Object.create(null);
    if (choice) state.rowMarks[tableId][key] = choice;
    else delete state.rowMarks[tableId][key];
    saveState();
    refreshAll();
  }

  function allCategories() {
    const seen = new Set();
    const out = [];
    for (const c of (DATA.categories || []).concat(state.categories)) {
      if (!seen.has(c)) {
        seen.add(c);
        out.push(c);
      }
    }
    return out;
  }

  // ---- small DOM helpers -------------------------------------------------------------------
  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function button(label, onClick, className) {
    const b = el("button", className || "btn", label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  // ---- exports -----------------------------------------------------------------------------
  function oneLine(text, width) {
    let s = String(text).replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, " ");
    if (s.length > width) s = s.slice(0, width) + "…";
    return s;
  }

  function benignHashes() {
    return Object.keys(state.marks).filter((h) => state.marks[h].benign).sort();
  }

  // The file --stop-chunks reads: one 40-hex SHA-1 per line; lines starting with # are comments.
  function stopListText() {
    const hashes = benignHashes();
    const lines = [
      "# crd stop list: " + hashes.length + " chunks marked benign in crd report of " + oneLine(DATA.file, 200) +
        " (run id " + DATA.runId + ")",
      "# use: crd discover … --stop-chunks THIS_FILE",
    ];
    for (const h of hashes) {
      if (sampleByHash[h] !== undefined) lines.push("# " + oneLine(sampleByHash[h], 120));
      lines.push(h);
    }
    return lines.join("\n") + "\n";
  }

  function csvField(value) {
    let s = String(value);
    if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;  // a spreadsheet would run it as a formula
    return '"' + s.replace(/"/g, '""') + '"';
  }

  function categoriesCsvText() {
    const rows = ["hash,category,sample"];
    for (const h of Object.keys(state.marks).sort()) {
      const m = state.marks[h];
      if (!m.category) continue;
      rows.push([h, m.category, sampleByHash[h] !== undefined ? sampleByHash[h] : ""].map(csvField).join(","));
    }
    return rows.join("\r\n") + "\r\n";
  }

  // A table's row marks as its export: "url,mark" CSV, or the URLs marked with the first choice,
  // one per line after # comments (what crd quilts --exclude-pages reads).
  function rowMarksText(tableId) {
    const spec = tablesById[tableId];
    if (!spec || !spec.marks) return "";
    const marks = state.rowMarks[tableId] || Object.create(null);
    const keys = Object.keys(marks).sort();
    if (spec.marks.format === "urls") {
      const wanted = spec.marks.choices[0];
      const urls = keys.filter((k) => marks[k] === wanted && !/[\r\n]/.test(k));
      return ["# crd: " + urls.length + " pages marked " + wanted + " in crd report of " + oneLine(DATA.file, 200) +
        " (run id " + DATA.runId + ")", "# use: crd quilts … --exclude-pages THIS_FILE"].concat(urls).join("\n") + "\n";
    }
    const rows = [spec.marks.key + ",mark"];
    for (const k of keys) rows.push([k, marks[k]].map(csvField).join(","));
    return rows.join("\r\n") + "\r\n";
  }

  function download(name, text, type) {
    const url = URL.createObjectURL(new Blob([text], { type: type }));
    const a = el("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => {
      URL.revokeObjectURL(url);
      a.remove();
    }, 1000);
  }

  // ---- the pruning panel (in the sticky header) --------------------------------------------
  let statusLine = null;
  let countLine = null;

  function setStatus(text) {
    if (statusLine) statusLine.textContent = text;
  }

  function buildPruningPanel() {
    const panel = el("div", "pruning");
    countLine = el("span", "pruning-count");
    panel.appendChild(countLine);
    panel.appendChild(button("Export stop list", () => {
      download("stop-chunks-" + DATA.runId + ".txt", stopListText(), "text/plain");
      setStatus("Stop list exported: rerun with --stop-chunks FILE.");
    }));
    panel.appendChild(button("Export categories", () => {
      download("chunk-categories-" + DATA.runId + ".csv", categoriesCsvText(), "text/csv");
      setStatus("Categories exported (CSV: hash, category, sample).");
    }));
    const input = el("input", "new-category");
    input.type = "text";
    input.placeholder = "new category";
    input.maxLength = 60;
    const add = () => {
      const name = input.value.trim();
      if (!name) return;
      if (!allCategories().includes(name)) state.categories.push(name);
      input.value = "";
      saveState();
      refreshAll();
      setStatus("Category “" + name + "” added to every menu.");
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") add();
    });
    panel.appendChild(input);
    panel.appendChild(button("Add", add));
    panel.appendChild(button("Clear marks", () => {
      if (!window.confirm("Clear every benign mark and category of this result?")) return;
      state.marks = Object.create(null);
      saveState();
      refreshAll();
    }, "btn btn-quiet"));
    statusLine = el("span", "pruning-status");
    panel.appendChild(statusLine);
    document.querySelector("header.top .wrap").appendChild(panel);
  }

  function refreshCounts() {
    if (!countLine) return;
    const marks = Object.values(state.marks);
    countLine.textContent = marks.filter((m) => m.benign).length + " benign · " +
      marks.filter((m) => m.category).length + " categorized";
  }

  // ---- tables ------------------------------------------------------------------------------
  function formatCell(col, value) {
    switch (col.type) {
      case "int": return intFormat.format(value);
      case "float": return value === null ? "–" : Number(value).toFixed(4);
      case "flag": return value ? "flagged" : "";
      case "hash": return String(value).slice(0, 12) + "…";
      default: return value;
    }
  }

  function TableView(spec, slot) {
    this.spec = spec;
    this.slot = slot;
    this.cols = spec.columns;
    this.n = spec.rows;
    this.filter = "";
    this.show = "all";
    this.page = 0;
    this.pageSize = spec.pageSize || 50;
    this.sortKey = spec.sort;
    this.desc = spec.desc;
    this.hashes = spec.pruning ? spec.data.hash : null;
    this.markKeys = spec.marks ? spec.data[spec.marks.key] : null;
    this.haystack = null;
    this.open = new Set();  // rows whose refs are expanded
    this.build();
    this.update();
  }

  TableView.prototype.build = function () {
    const spec = this.spec;
    const box = el("div", "table-box");
    if (spec.truncated) {
      const note = el("p", "note", spec.truncated + " For every row: ");
      note.appendChild(el("code", null, spec.inspect));
      box.appendChild(note);
    }
    const bar = el("div", "toolbar");
    this.filterInput = el("input", "filter");
    this.filterInput.type = "search";
    this.filterInput.placeholder = "Filter rows (text, URL, hash)…";
    this.filterInput.setAttribute("aria-label", "filter " + spec.id);
    this.filterInput.addEventListener("input", () => {
      this.filter = this.filterInput.value.toLowerCase();
      this.page = 0;
      this.update();
    });
    bar.appendChild(this.filterInput);
    if (spec.pruning) {
      bar.appendChild(this.showMenu([["all", "all chunks"], ["benign", "marked benign"], ["unmarked", "not benign"],
        ["uncategorized", "no category"]]));
    }
    if (spec.marks) {
      bar.appendChild(this.showMenu([["all", "all rows"], ["marked", "marked"], ["unmarked", "not marked"]]));
      const ext = spec.marks.format === "urls" ? ".txt" : ".csv";
      bar.appendChild(button("Export marks", () => {
        download(spec.marks.name + "-" + DATA.runId + ext, rowMarksText(spec.id),
          spec.marks.format === "urls" ? "text/plain" : "text/csv");
        this.markStatus.textContent = spec.marks.format === "urls"
          ? "Exported: rerun with --exclude-pages FILE." : "Marks exported (CSV).";
      }, "btn btn-export"));
      this.markStatus = el("span", "mark-status");
      bar.appendChild(this.markStatus);
    }
    this.countLabel = el("span", "count");
    bar.appendChild(this.countLabel);
    this.pager = el("span", "pager");
    bar.appendChild(this.pager);
    box.appendChild(bar);

    const scroller = el("div", "scroller");
    const table = el("table", "data");
    table.id = "table-" + spec.id;
    const head = el("thead");
    const tr = el("tr");
    if (spec.pruning) {
      tr.appendChild(el("th", "col-mark", "benign"));
      tr.appendChild(el("th", "col-category", "category"));
    }
    if (spec.marks) tr.appendChild(el("th", "col-rowmark", "mark"));
    this.headers = [];
    for (const col of this.cols) {
      const th = el("th", "col-" + col.type + " sortable", col.label);
      if (col.title) th.title = col.title;
      th.dataset.key = col.key;
      th.addEventListener("click", () => this.sortBy(col.key));
      tr.appendChild(th);
      this.headers.push(th);
    }
    head.appendChild(tr);
    table.appendChild(head);
    this.body = el("tbody");
    table.appendChild(this.body);
    scroller.appendChild(table);
    box.appendChild(scroller);
    this.slot.appendChild(box);
  };

  // The "show" menu that narrows a marked table to some of its rows: [value, label] pairs.
  TableView.prototype.showMenu = function (choices) {
    this.showSelect = el("select", "show");
    for (const [value, label] of choices) {
      const o = el("option", null, label);
      o.value = value;
      this.showSelect.appendChild(o);
    }
    this.showSelect.addEventListener("change", () => {
      this.show = this.showSelect.value;
      this.page = 0;
      this.update();
    });
    return this.showSelect;
  };

  TableView.prototype.sortBy = function (key) {
    if (this.sortKey === key) this.desc = !this.desc;
    else {
      this.sortKey = key;
      const col = this.cols.find((c) => c.key === key);
      this.desc = ["int", "float", "flag", "refs"].includes(col.type);
    }
    this.page = 0;
    this.update();
  };

  TableView.prototype.matches = function () {
    const n = this.n;
    let rows = [];
    if (this.filter) {
      if (!this.haystack) {
        const textCols = this.cols.filter((c) => ["text", "url", "hash", "list"].includes(c.type));
        this.haystack = new Array(n);
        for (let i = 0; i < n; i++) {
          let s = "";
          for (const c of textCols) {
            const v = this.spec.data[c.key][i];
            s += (Array.isArray(v) ? v.join("\n") : String(v)) + "\n";
          }
          this.haystack[i] = s.toLowerCase();
        }
      }
      for (let i = 0; i < n; i++) if (this.haystack[i].includes(this.filter)) rows.push(i);
    } else {
      rows = new Array(n);
      for (let i = 0; i < n; i++) rows[i] = i;
    }
    if (this.hashes && this.show !== "all") {
      rows = rows.filter((i) => {
        const m = mark(this.hashes[i]);
        if (this.show === "benign") return m.benign;
        if (this.show === "unmarked") return !m.benign;
        return !m.category;
      });
    }
    if (this.markKeys && this.show !== "all") {
      const id = this.spec.id;
      rows = rows.filter((i) => (rowMark(id, this.markKeys[i]) !== "") === (this.show === "marked"));
    }
    return rows;
  };

  TableView.prototype.sorted = function (rows) {
    const col = this.cols.find((c) => c.key === this.sortKey);
    if (!col) return rows;
    const values = this.spec.data[col.key];
    const key = col.type === "refs" || col.type === "list" ? (i) => values[i].length : (i) => values[i];
    const sign = this.desc ? -1 : 1;
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      if (x < y) return -sign;
      if (x > y) return sign;
      return a - b;  // stable: the result's own order breaks ties
    });
    return rows;
  };

  TableView.prototype.update = function () {
    this.rows = this.sorted(this.matches());
    const pages = Math.max(1, Math.ceil(this.rows.length / this.pageSize));
    this.page = Math.min(this.page, pages - 1);
    this.countLabel.textContent = intFormat.format(this.rows.length) + (this.rows.length === 1 ? " row" : " rows") +
      (this.rows.length !== this.n ? " of " + intFormat.format(this.n) : "");
    for (const th of this.headers) {
      const active = th.dataset.key === this.sortKey;
      th.classList.toggle("sorted", active);
      th.setAttribute("aria-sort", active ? (this.desc ? "descending" : "ascending") : "none");
    }
    this.drawPager(pages);
    // A small table needs no pager: it shows whole.
    this.pager.hidden = this.n <= 25 && pages === 1;
    this.drawBody();
  };

  TableView.prototype.drawPager = function (pages) {
    this.pager.replaceChildren();
    const go = (p) => () => {
      this.page = Math.max(0, Math.min(pages - 1, p));
      this.update();
    };
    this.pager.appendChild(button("«", go(0), "btn btn-page"));
    this.pager.appendChild(button("‹", go(this.page - 1), "btn btn-page"));
    this.pager.appendChild(el("span", "page-of", "page " + intFormat.format(this.page + 1) + " of " +
      intFormat.format(pages)));
    this.pager.appendChild(button("›", go(this.page + 1), "btn btn-page"));
    this.pager.appendChild(button("»", go(pages - 1), "btn btn-page"));
    const size = el("select", "page-size");
    for (const s of [25, 50, 100, 500]) {
      const o = el("option", null, s + " / page");
      o.value = String(s);
      if (s === this.pageSize) o.selected = true;
      size.appendChild(o);
    }
    size.addEventListener("change", () => {
      this.pageSize = Number(size.value);
      this.page = 0;
      this.update();
    });
    this.pager.appendChild(size);
  };

  TableView.prototype.drawBody = function () {
    const first = this.page * this.pageSize;
    const frag = document.createDocumentFragment();
    const categories = allCategories();
    for (const i of this.rows.slice(first, first + this.pageSize)) {
      const tr = el("tr");
      if (this.hashes) this.addPruningCells(tr, this.hashes[i], categories);
      if (this.markKeys) this.addRowMarkCell(tr, this.markKeys[i]);
      for (const col of this.cols) tr.appendChild(this.cell(col, i));
      frag.appendChild(tr);
      if (this.open.has(i)) frag.appendChild(this.detailRow(i));
    }
    if (this.rows.length === 0) {
      const tr = el("tr", "empty");
      const td = el("td", null, this.n === 0 ? "None." : "No row matches.");
      td.colSpan = this.extraColumns();
      tr.appendChild(td);
      frag.appendChild(tr);
    }
    this.body.replaceChildren(frag);
  };

  TableView.prototype.addPruningCells = function (tr, hash, categories) {
    const m = mark(hash);
    if (m.benign) tr.classList.add("benign");
    const box = el("input", "benign-box");
    box.type = "checkbox";
    box.checked = m.benign;
    box.setAttribute("aria-label", "benign " + hash);
    box.dataset.hash = hash;
    box.addEventListener("change", () => setMark(hash, { benign: box.checked }));
    const td = el("td", "col-mark");
    td.appendChild(box);
    tr.appendChild(td);
    const select = el("select", "category");
    select.dataset.hash = hash;
    const none = el("option", null, "—");
    none.value = "";
    select.appendChild(none);
    const names = m.category && !categories.includes(m.category) ? categories.concat([m.category]) : categories;
    for (const c of names) {
      const o = el("option", null, c);
      o.value = c;
      if (c === m.category) o.selected = true;
      select.appendChild(o);
    }
    select.addEventListener("change", () => setMark(hash, { category: select.value }));
    const tc = el("td", "col-category");
    tc.appendChild(select);
    tr.appendChild(tc);
  };

  TableView.prototype.extraColumns = function () {
    return this.cols.length + (this.hashes ? 2 : 0) + (this.markKeys ? 1 : 0);
  };

  TableView.prototype.addRowMarkCell = function (tr, key) {
    const id = this.spec.id;
    const current = rowMark(id, key);
    if (current) tr.classList.add("marked");
    const select = el("select", "row-mark");
    select.setAttribute("aria-label", "mark " + key);
    select.dataset.key = key;
    const none = el("option", null, "—");
    none.value = "";
    select.appendChild(none);
    for (const c of this.spec.marks.choices) {
      const o = el("option", null, c);
      o.value = c;
      if (c === current) o.selected = true;
      select.appendChild(o);
    }
    select.addEventListener("change", () => setRowMark(id, key, select.value));
    const td = el("td", "col-rowmark");
    td.appendChild(select);
    tr.appendChild(td);
  };

  TableView.prototype.cell = function (col, i) {
    const value = this.spec.data[col.key][i];
    const td = el("td", "col-" + col.type);
    if (col.type === "hash") {
      td.textContent = formatCell(col, value);
      td.title = value;
    } else if (col.type === "text") {
      td.appendChild(el("div", "sample", value));
    } else if (col.type === "list") {
      for (const item of value) td.appendChild(el("div", "list-item", item));
    } else if (col.type === "refs") {
      const b = button((this.open.has(i) ? "▾ " : "▸ ") + value.length, () => {
        if (this.open.has(i)) this.open.delete(i);
        else this.open.add(i);
        this.drawBody();
      }, "btn btn-refs");
      b.disabled = value.length === 0;
      td.appendChild(b);
    } else {
      td.textContent = formatCell(col, value);
      if (col.type === "flag" && value) td.classList.add("flagged");
    }
    return td;
  };

  // The rows of another table a refs cell points to (a page's labeled chunks and their provenance).
  TableView.prototype.detailRow = function (i) {
    const tr = el("tr", "detail");
    const td = el("td");
    td.colSpan = this.extraColumns();
    for (const col of this.cols.filter((c) => c.type === "refs")) {
      const target = tablesById[col.ref];
      if (!target) continue;
      const list = el("ol", "refs");
      for (const r of this.spec.data[col.key][i]) {
        const item = el("li");
        const d = target.data;
        if (d.sample) item.appendChild(el("div", "sample", d.sample[r]));
        if (d.source) item.appendChild(el("div", "url-chip", d.source[r]));
        const meta = [];
        if (d.pages) meta.push(intFormat.format(d.pages[r]) + " pages");
        if (d.occurrences) meta.push(intFormat.format(d.occurrences[r]) + " occurrences");
        if (d.hash) meta.push(d.hash[r]);
        if (d.rank) meta.push("picked " + d.rank[r]);
        if (d.grams_covered) meta.push("covers " + intFormat.format(d.grams_covered[r]) + " patch grams");
        if (d.same_host && d.same_host[r]) meta.push("same host");
        item.appendChild(el("div", "meta", meta.join(" · ")));
        if (d.provenance && d.provenance[r].length) {
          const prov = el("div", "provenance", "pages holding it: ");
          for (const u of d.provenance[r]) prov.appendChild(el("span", "url-chip", u));
          item.appendChild(prov);
        }
        list.appendChild(item);
      }
      td.appendChild(list);
    }
    tr.appendChild(td);
    return tr;
  };

  function refreshAll() {
    for (const v of views) if (v.hashes || v.markKeys) v.update();
    refreshCounts();
  }

  // ---- start -------------------------------------------------------------------------------
  for (const spec of DATA.tables) {
    tablesById[spec.id] = spec;
    if (spec.pruning && spec.data.hash && spec.data.sample)
      spec.data.hash.forEach((h, i) => { sampleByHash[h] = spec.data.sample[i]; });
  }
  if (DATA.tables.some((t) => t.pruning)) buildPruningPanel();
  for (const slot of document.querySelectorAll(".table-slot")) {
    const spec = tablesById[slot.dataset.table];
    if (spec) views.push(new TableView(spec, slot));
  }
  refreshCounts();

  // For tests and for users who prefer the console: the exports as text.
  window.crdReport = {
    stopListText: stopListText,
    categoriesCsvText: categoriesCsvText,
    csvField: csvField,
    rowMarksText: rowMarksText,
    runId: DATA.runId,
  };
})();
