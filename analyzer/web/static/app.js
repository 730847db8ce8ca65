// bja serve: the pages' script. Every figure comes from /api (the engine); this file
// only moves rule choices into the query string and figures into tables.
"use strict";

const $ = (id) => document.getElementById(id);
const UPCARDS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"];
const pct = (x, d = 4) => (100 * x).toFixed(d) + "%";

function status(text) { const s = $("status"); if (s) s.textContent = text; }
function showError(text) {
  const e = $("error");
  if (!e) return;
  e.hidden = !text;
  e.textContent = text || "";
}

async function api(command, params) {
  const r = await fetch(`/api/${command}?` + query(params));
  const text = await r.text();
  if (!r.ok) throw new Error(text.trim());
  return JSON.parse(text);
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "" || v === false) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, one === true ? "1" : String(one));
  }
  return q.toString();
}

// A background job: started, polled for progress, cancellable; resolves with its JSON.
async function job(command, params, bar, onState) {
  const r = await fetch(`/api/jobs?command=${encodeURIComponent(command)}&` + query(params),
                        { method: "POST" });
  const text = await r.text();
  if (!r.ok) throw new Error(text.trim());
  let state = JSON.parse(text);
  if (bar) { bar.hidden = false; bar.removeAttribute("value"); }
  try {
    while (state.state === "queued" || state.state === "running") {
      await new Promise((ok) => setTimeout(ok, 250));
      state = await (await fetch(`/api/jobs/${state.id}`)).json();
      if (bar && state.total) { bar.max = state.total; bar.value = state.done; }
      if (onState) onState(state);
    }
  } finally { if (bar) bar.hidden = true; }
  if (state.state !== "done") throw new Error(state.error || `job ${state.state}`);
  if (command === "certify") return state;
  return await (await fetch(`/api/jobs/${state.id}/result`)).json();
}

function table(el, head, rows) {
  el.innerHTML = "";
  const tr = el.createTHead().insertRow();
  for (const h of head) { const th = document.createElement("th"); th.textContent = h; tr.appendChild(th); }
  const body = el.createTBody();
  for (const row of rows) {
    const r = body.insertRow();
    for (const c of row) r.insertCell().textContent = c;
  }
  return el;
}

// ---- the rules form: spec <-> controls, state in the query string -----------------
const SELECTS = { decks: /^\d+D$/, soft17: /^[HS]17$/, double: /^(DOA|D9|D10)$/,
                  das: /^N?DAS$/, splits: /^(SPL\d|NSPL)$/, surrender: /^(NS|LS|ES)$/,
                  payout: /^BJ\d+:\d+$/, hole: /^(PEEK|PEEKA|ENHC)$/, charlie: /^CH\d+$/ };

function controlsFromSpec(spec) {
  const tokens = spec.toUpperCase().split(/\s+/).filter(Boolean);
  const used = new Set();
  for (const [name, re] of Object.entries(SELECTS)) {
    const sel = document.querySelector(`[data-rule="${name}"]`);
    const tok = tokens.find((t) => re.test(t));
    if (!sel) continue;
    if (tok && [...sel.options].some((o) => o.value === tok)) { sel.value = tok; used.add(tok); }
    else if (tok === "PEEK") { sel.value = ""; used.add(tok); }
    else if (!tok && (name === "hole" || name === "charlie")) sel.value = "";
  }
  for (const box of document.querySelectorAll("[data-flag]")) {
    box.checked = tokens.includes(box.dataset.flag);
    if (box.checked) used.add(box.dataset.flag);
  }
  const extra = document.querySelector('[data-rule="extra"]');
  if (extra) extra.value = tokens.filter((t) => !used.has(t)).join(" ");
}

function specFromControls() {
  const parts = [];
  for (const name of Object.keys(SELECTS)) {
    const sel = document.querySelector(`[data-rule="${name}"]`);
    if (sel && sel.value) parts.push(sel.value);
  }
  for (const box of document.querySelectorAll("[data-flag]")) if (box.checked) parts.push(box.dataset.flag);
  const extra = document.querySelector('[data-rule="extra"]');
  if (extra && extra.value.trim()) parts.push(extra.value.trim().toUpperCase());
  return parts.join(" ");
}

function rulesParams() {
  const p = { rules: $("spec") ? $("spec").value.trim() : "" };
  if ($("shoe") && $("shoe").value.trim()) p.shoe = $("shoe").value.trim();
  return p;
}

function saveState(extra) {
  const p = Object.assign(rulesParams(), extra || {});
  history.replaceState(null, "", location.pathname + "?" + query(p));
}

async function setupRules(onChange) {
  const form = $("rules-form");
  if (!form) return;
  if (!$("spec").value) $("spec").value = "6D S17 DOA DAS SPL3 LS";
  controlsFromSpec($("spec").value);
  const changed = () => { saveState(); onChange(); };
  for (const el of form.querySelectorAll("[data-rule], [data-flag]")) {
    el.addEventListener("change", () => { $("spec").value = specFromControls(); $("game").value = ""; changed(); });
  }
  $("spec").addEventListener("change", () => { controlsFromSpec($("spec").value); changed(); });
  if ($("shoe")) $("shoe").addEventListener("change", changed);
  try {
    const games = await api("rules", { action: "list" });
    for (const [name, g] of Object.entries(games)) {
      const o = document.createElement("option");
      o.value = g.spec; o.textContent = `${name} (${g.kind})`;
      $("game").appendChild(o);
    }
  } catch (err) { showError(err.message); }
  $("game").addEventListener("change", () => {
    if (!$("game").value) return;
    $("spec").value = $("game").value;
    controlsFromSpec($("spec").value);
    changed();
  });
}

// ---- Game ---------------------------------------------------------------------------
let generation = 0;

async function recomputeGame() {
  const mine = ++generation;
  const p = rulesParams();
  showError("");
  status("computing…");
  $("exact-out").textContent = "";
  try {
    // The RTP first (a fraction of a second), then the chart, the levels, the exceptions:
    // each only while these are still the rules on screen.
    const ev = await api("ev", p);
    if (mine !== generation) return;
    $("rtp").textContent = pct(ev.rtp);
    $("edge").textContent = pct(-ev.ev);
    table($("upcards"), ["upcard", ...Object.keys(ev.by_upcard)],
          [["EV", ...Object.values(ev.by_upcard).map((x) => x.toFixed(5))]]);
    const ins = ev.insurance.full_shoe;
    $("insurance").textContent = `Insurance off the top: EV ${ins.ev.toFixed(5)} per unit insured ` +
      `(${ins.ev_exact}); P(ten) ${ins.p_ten.toFixed(5)}; ${ins.take ? "take it" : "do not take it"}.`;
    const chart = await api("chart", { rules: p.rules });
    if (mine !== generation) return;
    drawChart(chart);
    const levels = await api("ev", Object.assign({ levels: 1 }, p));
    if (mine !== generation) return;
    table($("levels"), ["level", "RTP", "EV"], Object.entries(levels.levels || {}).map(
      ([k, v]) => [v.title || k, v.rtp == null ? "—" : pct(v.rtp), v.ev == null ? "—" : v.ev.toFixed(6)]));
    const ex = await fetch("/page/exceptions?" + query({ rules: p.rules }));
    if (mine === generation) $("exceptions").textContent = (await ex.text()).trim();
    status("ready");
  } catch (err) { if (mine === generation) { showError(err.message); status("error"); } }
}

function cellCards(row) {
  const kind = row[0], n = row.slice(1);
  if (kind === "P") return n === "A" ? "A,A" : (n === "T" || n === "10" ? "T,T" : `${n},${n}`);
  if (kind === "S") { const o = Number(n) - 11; return o === 1 ? "A,A" : `A,${o === 10 ? "T" : o}`; }
  const t = Number(n.replace(/\D.*$/, ""));
  for (let a = 10; a >= 2; a--) { const b = t - a; if (b >= 2 && b <= 10 && b !== a) return `${a === 10 ? "T" : a},${b === 10 ? "T" : b}`; }
  const h = t / 2;
  return `${h === 10 ? "T" : h},${h === 10 ? "T" : h}`;
}

function drawChart(chart) {
  $("chart-ev").textContent = `Chart EV ${chart.ev.toFixed(6)} (optimum ${chart.optimum_ev.toFixed(6)}).`;
  const el = $("chart");
  el.innerHTML = "";
  const head = el.createTHead().insertRow();
  for (const h of ["", ...UPCARDS]) { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); }
  const body = el.createTBody();
  for (const [row, codes] of Object.entries(chart.chart.main)) {
    const tr = body.insertRow();
    const th = document.createElement("th"); th.textContent = row; tr.appendChild(th);
    codes.forEach((code, i) => {
      const td = tr.insertCell();
      td.textContent = code;
      td.className = "a-" + code[0];
      td.tabIndex = 0;
      td.dataset.cards = cellCards(row);
      td.dataset.up = UPCARDS[i];
      td.title = `${row} vs ${UPCARDS[i]}`;
      td.addEventListener("click", () => cellEv(td));
      td.addEventListener("mouseenter", () => cellEv(td));
      td.addEventListener("keydown", (e) => { if (e.key === "Enter") cellEv(td); });
    });
  }
}

// The pointer crosses many cells: only the last one asked for writes its EVs.
let cellAsked = null;

async function cellEv(td) {
  const p = rulesParams();
  const out = $("cell-ev");
  cellAsked = td;
  out.textContent = `${td.dataset.cards} vs ${td.dataset.up}: …`;
  try {
    const h = await api("hand", { rules: p.rules, up: td.dataset.up, cards: td.dataset.cards });
    if (cellAsked !== td) return;
    const acts = Object.entries(h.actions).map(([a, v]) => `${a} ${v.toFixed(4)}`).join(" · ");
    out.textContent = `${h.cards.join(",")} vs ${h.upcard}: ${acts} — best ${h.best}`;
    td.title = out.textContent;
  } catch (err) { if (cellAsked === td) out.textContent = err.message; }
}

function setupGame() {
  setupRules(recomputeGame).then(recomputeGame);
  $("exact-btn").addEventListener("click", async () => {
    $("exact-out").textContent = "";
    try {
      const ev = await job("ev", Object.assign({ exact: 1 }, rulesParams()), $("exact-progress"));
      $("exact-out").textContent = `EV = ${ev.ev_exact} = ${ev.ev} (RTP ${ev.rtp})`;
    } catch (err) { showError(err.message); }
  });
  $("dist-btn").addEventListener("click", async () => {
    try {
      const d = await job("distribution", rulesParams(), $("dist-progress"));
      $("dist-summary").textContent = `SD ${d.sd.toFixed(4)} · hit frequency ${pct(d.hit_frequency, 2)} ` +
        `· P(win) ${pct(d.p_win, 2)} · P(push) ${pct(d.p_push, 2)} · P(loss) ${pct(d.p_loss, 2)}`;
      plot($("dist-plot"), d.distribution);
    } catch (err) { showError(err.message); }
  });
}

function plot(el, dist) {
  // {"-1": p, "3/2": p, ...}: net result (units of the bet, a fraction) -> probability
  const pts = Object.entries(dist).map(([k, v]) => [frac(k), Number(v), k])
    .filter((x) => isFinite(x[0]) && isFinite(x[1])).sort((a, b) => a[0] - b[0]);
  const max = Math.max(...pts.map((x) => x[1]));
  const w = 100 / pts.length;
  el.innerHTML = `<svg viewBox="0 0 100 50" preserveAspectRatio="none" role="img" aria-label="distribution">` +
    pts.map(([, p, k], i) => `<rect x="${i * w}" y="${50 - 48 * p / max}" width="${w * 0.8}" height="${48 * p / max}"><title>${k}: ${p}</title></rect>`).join("") +
    `</svg><div class="axis"><span>${pts[0][2]}</span><span>net result (units of the bet)</span><span>${pts[pts.length - 1][2]}</span></div>`;
}

// ---- Side bets ----------------------------------------------------------------------
const frac = (s) => { const [a, b] = String(s).split("/"); return b ? Number(a) / Number(b) : Number(a); };

async function recomputeSidebet() {
  const mine = ++generation;
  const p = { bet: $("bet").value, decks: $("decks").value, pays: $("pays").value.trim() };
  history.replaceState(null, "", location.pathname + "?" + query(p));
  showError("");
  try {
    const s = await api("sidebet", p);
    if (mine !== generation) return;
    $("sb-rtp").textContent = pct(s.rtp);
    $("sb-sd").textContent = s.sd.toFixed(4);
    const top = s.top_award;
    $("sb-top").textContent = top.one_in
      ? `${top.label}: 1 in ${Number(top.one_in).toLocaleString("en", { maximumFractionDigits: 1 })}`
      : `${top.label}: never`;
    const el = table($("paytable"), ["event", "pays (to 1)", "combinations", "probability", "return"],
      s.events.map((e) => [e.label, "", e.combinations.toLocaleString("en"), frac(e.probability).toPrecision(6), e.return.toFixed(6)]));
    [...el.tBodies[0].rows].forEach((tr, i) => {
      if (!(frac(s.events[i].pays) > 0)) { tr.cells[1].textContent = String(s.events[i].pays); return; }
      const input = document.createElement("input");
      input.value = s.events[i].pays; input.size = 5; input.dataset.event = s.events[i].name;
      input.setAttribute("aria-label", `pay of ${s.events[i].label}`);
      input.addEventListener("change", () => {
        const pays = [...document.querySelectorAll("#paytable input")].map((x) => `${x.dataset.event}=${x.value.trim()}`);
        $("pays").value = pays.join(",");
        recomputeSidebet();
      });
      tr.cells[1].appendChild(input);
    });
    const sel = $("solve-event"), keep = sel.value;
    sel.innerHTML = s.events.map((e) => `<option value="${e.name}">${e.label}</option>`).join("");
    if (keep) sel.value = keep;
  } catch (err) { if (mine === generation) showError(err.message); }
}

function setupSidebet() {
  for (const id of ["bet", "decks", "pays"]) $(id).addEventListener("change", () => {
    if (id === "bet") $("pays").value = "";
    recomputeSidebet();
  });
  $("solve-btn").addEventListener("click", async () => {
    try {
      const s = await api("sidebet", { bet: $("bet").value, decks: $("decks").value, pays: $("pays").value.trim(),
                                       solve: $("solve-event").value, "target-rtp": $("target").value });
      $("solve-out").textContent = `pay ${s.pay ?? s.pay_exact} to 1` + (s.pay_exact ? ` (exactly ${s.pay_exact})` : "");
    } catch (err) { showError(err.message); }
  });
  recomputeSidebet();
}

// ---- Effects and compare ------------------------------------------------------------
function setupEffects() {
  setupRules(() => {});
  $("effects-btn").addEventListener("click", async () => {
    showError("");
    try {
      const d = await job("compare", { base: rulesParams().rules, effects: 1, "no-chart": 1 }, $("effects-progress"));
      const specs = [d.base, ...d.rows.map((r) => r.rules || d.base)];
      const said = await (await fetch("/page/words?" + query({ rules: specs }))).json();
      const base = new Set(said[0]);
      const rows = d.rows.map((r, i) => [r.name, said[i + 1].filter((w) => !base.has(w)).join("; ") || r.change,
        r.change, r.delta == null ? r.error || "" : pct(r.delta, 4), r.rtp == null ? "" : pct(r.rtp)]);
      sortable(table($("effects"), ["token", "in words", "change", "effect on RTP", "RTP"], rows), rows);
    } catch (err) { showError(err.message); }
  });
  $("compare-btn").addEventListener("click", async () => {
    showError("");
    const games = $("variants").value.split("\n").map((s) => s.trim()).filter(Boolean);
    try {
      const d = await job("compare", { games, "no-chart": 1 }, $("compare-progress"));
      $("compare-out").textContent = JSON.stringify(d, null, 2);
    } catch (err) { showError(err.message); }
  });
}

function sortable(el, rows) {
  [...el.tHead.rows[0].cells].forEach((th, i) => th.addEventListener("click", () => {
    const num = (s) => parseFloat(String(s).replace("%", ""));
    rows.sort((a, b) => (isNaN(num(a[i])) ? String(a[i]).localeCompare(String(b[i])) : num(b[i]) - num(a[i])));
    const body = el.tBodies[0];
    body.innerHTML = "";
    for (const row of rows) { const r = body.insertRow(); for (const c of row) r.insertCell().textContent = c; }
  }));
}

// ---- Shoe ---------------------------------------------------------------------------
// Cards can be taken out faster than the server answers, and answers can come back in any
// order: a figure is written only while its shoe is still the one on screen, else an
// earlier shoe's EV would stand beside the current shoe.
async function recomputeShoe() {
  const mine = ++generation;
  showError("");
  $("shoe-ev").textContent = "…";
  try {
    const p = rulesParams();
    const ev = await api("ev", p);
    if (mine !== generation) return;
    $("shoe-ev").textContent = `${pct(ev.ev)} (RTP ${pct(ev.rtp)})`;
    const h = await api("hand", Object.assign({ up: $("hand-up").value, cards: $("hand-cards").value }, p));
    if (mine !== generation) return;
    $("hand-out").textContent = `best ${h.best}: ` + Object.entries(h.actions).map(([a, v]) => `${a} ${v.toFixed(4)}`).join(" · ");
  } catch (err) { if (mine === generation) showError(err.message); }
}

// The shoe's text (A:24,2:24,...) with one card of value v taken out.
function removeCard(v) {
  let shoe = $("shoe").value.trim();
  if (!shoe) {
    const decks = Number(($("spec").value.match(/(\d+)D/i) || [0, 6])[1]);
    shoe = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"].map((c) => `${c}:${c === "T" ? 16 * decks : 4 * decks}`).join(",");
  }
  $("shoe").value = shoe.split(",").map((part) => {
    const [c, n] = part.split(":");
    return c.trim().toUpperCase() === v && Number(n) > 0 ? `${c}:${Number(n) - 1}` : part;
  }).join(",");
  saveState();
  recomputeShoe();
}

function setupShoe() {
  for (const v of ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]) {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = `−${v}`; b.title = `take one ${v} out of the shoe`;
    b.addEventListener("click", () => removeCard(v));
    $("remove").appendChild(b);
  }
  setupRules(recomputeShoe).then(recomputeShoe);
  for (const id of ["hand-up", "hand-cards"]) $(id).addEventListener("change", recomputeShoe);
  $("eor-btn").addEventListener("click", async () => {
    showError("");
    try {
      const p = rulesParams();
      const e = await job("eor", p, $("eor-progress"));
      table($("eor"), ["card removed", "EV with it removed", "effect of removal"],
            Object.keys(e.eor).map((k) => [k, pct(e.removed[k], 4), pct(e.eor[k], 4)]));
      const ind = await job("indices", { rules: p.rules }, $("eor-progress"));
      table($("indices"), ["decision", `index (${ind.system})`, "rule", "published"],
            ind.indices.map((d) => [d.label, d.index == null ? "—" : d.index.toFixed(2), d.rule || "", d.published || ""]));
    } catch (err) { showError(err.message); }
  });
}

// ---- Certificate --------------------------------------------------------------------
function setupCertificate() {
  setupRules(() => {});
  let current = null;
  $("cert-btn").addEventListener("click", async () => {
    showError("");
    $("cert-files").innerHTML = "";
    $("cert-cancel").hidden = false;
    try {
      const params = Object.assign({ float: $("cert-float").checked ? 1 : 0, "no-pdf": $("cert-pdf").checked ? 0 : 1,
                                     rounds: $("cert-rounds").value, seed: 1 }, { rules: rulesParams().rules });
      const state = await job("certify", params, $("cert-progress"), (s) => {
        current = s.id;
        $("cert-stage").textContent = s.stage ? `${s.stage}: ${s.done} of ${s.total}` : s.state;
      });
      $("cert-stage").textContent = "done";
      for (const name of state.files) {
        const li = document.createElement("li");
        li.innerHTML = `<a href="/api/jobs/${state.id}/files/${name}" download="${name}">${name}</a>`;
        $("cert-files").appendChild(li);
      }
    } catch (err) { showError(err.message); }
    $("cert-cancel").hidden = true;
  });
  $("cert-cancel").addEventListener("click", () => { if (current) fetch(`/api/jobs/${current}`, { method: "DELETE" }); });
}

const SETUP = { game: setupGame, sidebet: setupSidebet, effects: setupEffects, shoe: setupShoe, certificate: setupCertificate };
(SETUP[document.body.dataset.page] || (() => {}))();
