// Robin Wood strategy explorer: Browse, Ask and Play over the JSON API (explorer/api.py).
"use strict";

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, opts);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

let toastTimer = null;
function toast(message) {
  const t = $("#toast");
  t.textContent = message;
  t.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.add("hidden"), 6000);
}
function guarded(fn) {
  return async (...args) => {
    try { await fn(...args); } catch (e) { toast(e.message); }
  };
}

const pct = (p) => (100 * p).toFixed(1) + "%";
// +0.123 / −0.123; values that round to zero print as 0.000 (no "−0.000")
const signed = (x, digits = 3) => Math.abs(x) < 0.5 * 10 ** -digits ? (0).toFixed(digits)
  : (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(digits);
const fmtProb = (p) => p >= 0.001 || p === 0 ? pct(p) : p.toExponential(1);

let RUN = null;

// ----- the board ---------------------------------------------------------------------
// A seat's team in team mode ("team 0+2"), or null.
function teamOf(board, p) {
  const team = (board.teams || []).find((t) => t.includes(p));
  return team ? `team ${team.join("+")}` : null;
}

// A payoff as the game pays it: +1 / −1 / 0, and −0.50 for a loser among three.
const payoff = (x) => signed(x, Number.isInteger(x) ? 0 : 2);

function renderBoard(container, board, {names = {}, truth = false} = {}) {
  container.replaceChildren();
  const root = el("div", {class: "board"});
  const seats = el("div", {class: "seats"});
  for (const p of board.strikes.keys()) {
    const sheets = el("span", {class: "sheets", title: `${board.strikes[p]} strike(s) of ${board.strikes_to_lose}`});
    for (let i = 0; i < board.strikes_to_lose; i++) {
      sheets.append(el("span", {class: "sheet" + (i < board.strikes[p] ? " struck" : "")}));
    }
    const toAct = board.mover === p;
    const team = teamOf(board, p);
    seats.append(el("div", {class: "seat" + (toAct ? " to-act" : "") + (board.eliminated[p] ? " out" : "")
                              + (team ? ` team-${p % 2}` : ""),
                            dataset: {seat: p}},
      el("span", {class: "name"}, names[p] || `P${p}`),
      team ? el("span", {class: "team", title: "Partners share a win or a loss"}, team) : null, sheets,
      el("span", {class: "count"}, `${board.strikes[p]} strike${board.strikes[p] === 1 ? "" : "s"}`),
      toAct ? el("span", {class: "acting"}, "  · to act") : null,
      board.over && board.winner !== null && (board.winner === p || (board.teams && board.winner % 2 === p % 2))
        ? el("b", {}, "  · winner") : null));
  }
  root.append(seats);
  root.append(el("div", {class: "phase", id: container.id + "-phase"},
    el("span", {class: "turn"}, board.over ? `${board.turn} turns` : `Turn ${board.turn} / ${board.max_turns}`),
    board.phase));
  const grid = el("div", {class: "grid"});
  const width = board.positions.length > 6 ? 124 : 150;
  grid.style.gridTemplateColumns = `repeat(${board.columns}, minmax(0, ${width}px))`;
  for (const p of board.positions) grid.append(cardEl(p, truth, names));
  root.append(grid);
  container.append(root);
}

function cardEl(p, truth, names = {}) {
  const tags = [];
  if (p.peeked) tags.push("peeked");
  if (p.picked) tags.push("picked");
  if (p.power_card) tags.push("power");
  const marked = p.peeked ? " peeked" : p.picked ? " picked" : p.power_card ? " power" : "";
  const tag = tags.length ? el("span", {class: "tag"}, tags.join(" · ")) : null;
  if (p.face_up) {
    return el("div", {class: `card ${p.camp}${marked}`, dataset: {pos: p.pos, card: p.card}},
      el("span", {class: "pos"}, p.pos), tag,
      el("div", {class: "name"}, p.card),
      el("div", {class: "camp"}, campLabel(p.camp)));
  }
  const notes = [];
  if (p.holding) notes.push(el("div", {class: `truth ${p.holding_camp}`}, `in your hand: ${p.holding}`));
  else if (p.seen) notes.push(el("div", {class: "truth neutral"}, `you saw: ${p.seen}${p.seen_stale ? " (may have moved)" : ""}`));
  if (p.signal && !truth) {
    notes.push(el("div", {class: "truth neutral signal", title: "What the Innkeeper named to the team (it may be a lie)"},
      `${names[p.signal.seat] || "P" + p.signal.seat} signalled: ${p.signal.card}${p.signal.stale ? " (may have moved)" : ""}`));
  }
  if (truth && p.hidden) notes.push(el("div", {class: `truth ${p.hidden_camp}`}, p.hidden));
  if (truth && !p.hidden) notes.push(el("div", {class: "truth neutral"}, "not dealt yet"));
  return el("div", {class: `card down${marked}`, dataset: {pos: p.pos, hidden: p.hidden || ""}},
    el("span", {class: "pos"}, p.pos), tag,
    el("div", {class: "name"}, "?"),
    el("div", {}, notes));
}

function campLabel(camp) {
  return {robin: "Robin's camp", sheriff: "Sheriff's camp", traitor: "traitor", neutral: "neutral"}[camp] || "";
}

// ----- Browse ----------------------------------------------------------------------
const B = {layout: null, seed: 0, timeline: [], cursor: -1, view: null};

async function browseGo(actions, push = true) {
  const v = await api("/api/browse", {layout: B.layout, seed: B.seed, actions});
  if (push) {
    B.timeline = B.timeline.slice(0, B.cursor + 1);
    B.timeline.push(v.actions);
    B.cursor = B.timeline.length - 1;
  }
  B.view = v;
  renderBrowse();
}

async function browseNewDeal(seed) {
  const d = await api("/api/deal" + (seed === undefined ? "" : `?seed=${seed}`));
  $("#b-deal-editor").classList.add("hidden");
  B.layout = d.layout;
  B.seed = d.seed;
  B.timeline = [];
  B.cursor = -1;
  await browseGo([]);
}

function sample(actions) {
  let x = Math.random(), total = 0;
  for (const a of actions) {
    total += a.prob;
    if (x < total) return a;
  }
  return actions.filter((a) => a.prob > 0).pop() || actions[actions.length - 1];
}

function renderBrowse() {
  const v = B.view;
  const choice = $("#b-viewer").value;
  let board = v.board, truth = true;
  if (choice !== "all") {
    const seat = choice === "mover" ? (v.decision ? v.decision.mover : 0) : Number(choice);
    board = v.views[String(seat)];
    truth = false;
  }
  renderBoard($("#b-board"), board, {truth});
  renderDecision(v);
  const hist = $("#b-history");
  hist.replaceChildren();
  v.history.forEach((h, i) => {
    // the Deputy's blind shuffle comes from the seed; the designer may take the other one
    const other = {"shuffle keep": "shuffle swap", "shuffle swap": "shuffle keep"}[h.text];
    hist.append(el("li", {class: h.seat < 0 ? "chance" : ""},
      el("a", {href: "#", title: "Go back to just after this action",
               onclick: guarded(async (e) => { e.preventDefault(); await browseGo(v.actions.slice(0, i + 1)); })},
        `${h.who}: ${h.text}`),
      other ? el("button", {class: "flip", title: `Replay from here with ${other}`,
                            onclick: guarded(() => browseGo([...v.actions.slice(0, i), other]))},
                 `take ${other.split(" ")[1]} instead`) : null));
  });
  if (!v.history.length) hist.append(el("li", {class: "muted"}, "the round has not started"));
  $("#b-snippet").textContent = v.replay;
  $("#b-back").disabled = B.cursor <= 0;
  $("#b-forward").disabled = B.cursor >= B.timeline.length - 1;
  $("#b-step").disabled = $("#b-finish").disabled = !v.decision;
  const state = {layout: v.layout, seed: v.seed, actions: v.actions};
  $("#b-link").href = "#browse=" + encodeURIComponent(JSON.stringify(state));
}

function renderDecision(v) {
  const box = $("#b-decision");
  box.replaceChildren();
  const d = v.decision;
  if (!d) {
    const b = v.board;
    box.append(el("h3", {}, "Round over"), el("p", {class: "result"}, b.result),
      el("p", {}, "Payoffs: " + b.returns.map((x, p) => `P${p} ${payoff(x)}`).join(", ")));
    return;
  }
  const why = RUN.two_player_only || {};
  const exact = RUN.kind === "exact" && !why.values;   // exact EVs and reach
  const team = teamOf(v.board, d.mover);
  box.append(el("h3", {}, `P${d.mover} decides` + (team ? ` (${team})` : "")));
  const best = Math.max(...d.actions.map((a) => a.prob));
  const head = el("tr", {}, el("th", {}, "action"), el("th", {}, "strategy"), el("th", {class: "num"}, "probability"),
    exact ? el("th", {class: "num", title: "The mover's expected payoff (win +1, loss −1) of the action, given what the mover knows, both players following the strategy afterwards"}, "EV for mover") : null);
  const rows = d.actions.map((a) => el("tr", {
      class: "act" + (a.prob === best ? " best" : ""), dataset: {action: a.text, prob: a.prob},
      title: "Play this action", onclick: guarded(() => browseGo([...v.actions, a.text]))},
    el("td", {}, a.label),
    el("td", {}, el("div", {class: "bar"}, el("div", {style: `width:${(100 * a.prob).toFixed(2)}%`}))),
    el("td", {class: "num prob"}, fmtProb(a.prob)),
    exact ? el("td", {class: "num ev"}, a.ev === null ? "n/a" : signed(a.ev)) : null));
  box.append(el("table", {id: "b-actions"}, el("thead", {}, head), el("tbody", {}, rows)));
  const facts = el("dl", {class: "facts"});
  const fact = (k, val, title) => facts.append(el("dt", {title}, k), el("dd", {}, val));
  if (RUN.kind === "exact" && why.values) {
    fact("EVs and reach", el("span", {class: "muted", id: "b-two-player-only"}, why.values));
  }
  if (RUN.kind === "exact" && d.locked_by && why.values) {
    fact("locked", el("span", {class: "locked"}, d.locked_by),
         "This decision is played as the lock says; the rest of the strategy was solved against the locks (docs/locks.md)");
  }
  if (exact) {
    fact("reach of this situation", d.reach === null ? "n/a" : d.reach === 0 ? "0 (the strategy never plays into it)" : fmtProb(d.reach),
         "P(this exact history) when chance and both players follow the strategy");
    fact("reach of what the mover knows", d.situation_reach === null ? "n/a" : fmtProb(d.situation_reach),
         "P(the mover's information state) under the strategy");
    fact("strategy's EV for the mover", d.strategy_value === null ? "n/a (never reached)" : signed(d.strategy_value));
    fact("value for P0 from here", signed(v.value), "P0's expected payoff from this exact history (cards not yet seen averaged)");
    if (d.locked_by) {
      fact("locked", el("span", {class: "locked"}, d.locked_by),
           "This decision is played as the lock says; the rest of the strategy was solved against the locks (docs/locks.md)");
    }
  } else if (RUN.kind !== "exact") {
    fact("training visits of this situation", d.visits === null ? "n/a (not recorded by this run)" : d.visits.toLocaleString(),
         "How often Monte Carlo CFR visited this abstract situation: how much the strategy learned here");
    fact("table entry", d.entry === null || d.entry < 0 ? "none" : d.entry);
    const by = d.played_by;
    fact("played by", by === "table" ? "the table" : by === "uniform" ? "uniform play (no entry)"
         : by === "lock" ? "the lock (not the table)"
         : by ? `the ${by}'s rules (the table has not learned here)` : "n/a",
         "Where the table has fewer than the run's fine_visits updates, a league player's rules move (docs/mccfr.md)");
  }
  fact("what the mover knows", el("span", {class: "info"}, d.info_state));
  box.append(facts);
  const lockable = d.actions.some((a) => a.text === "challenge" || a.text === "silent");
  if (RUN.kind === "exact" && lockable) box.append(lockForm(v));
}

// Lock this decision (and every one like it: same seat, card or claim, strikes and
// turn) to chosen probabilities, re-solve in the background, show what changed.
function lockForm(v) {
  const d = v.decision;
  const inputs = d.actions.map((a) => el("input", {type: "number", min: "0", max: "1", step: "0.05",
    value: a.prob.toFixed(2), dataset: {action: a.text}, class: "lock-prob"}));
  const result = el("div", {id: "b-lock-result", class: "muted"});
  const form = el("details", {id: "b-lock"},
    el("summary", {}, "Lock this decision and re-solve…"),
    el("p", {class: "muted"}, "Fix how decisions like this one are played (same seat, card or claim, strikes and turn); the rest is solved again against them (docs/locks.md)."),
    el("table", {}, el("tbody", {}, d.actions.map((a, i) => el("tr", {}, el("td", {}, a.label), el("td", {}, inputs[i]))))),
    el("button", {id: "b-lock-go", onclick: guarded(async () => {
      const probs = {};
      inputs.forEach((x) => { probs[x.dataset.action] = Number(x.value); });
      const job = await api("/api/lock", {layout: v.layout, seed: v.seed, actions: v.actions, probs});
      result.replaceChildren(`Re-solving with ${job.lock} …`);
      for (;;) {
        await new Promise((r) => setTimeout(r, 500));
        const j = await api(`/api/lock/${job.id}`);
        if (j.state === "running") continue;
        if (j.state === "failed") { result.replaceChildren(`The re-solve failed: ${j.error}`); return; }
        const here = Object.entries(j.here).map(([t, p]) => `${t} ${fmtProb(p)}`).join(", ");
        const values = j.values.length === 2
          ? `P0's value ${signed(j.values[0])}, ${signed(j.value_shift[0])} from the same solve without the lock `
          : `seat values ${j.values.map((x) => signed(x)).join(", ")}, shifts ${j.value_shift.map((x) => signed(x)).join(", ")} from the same solve without the lock `;
        result.replaceChildren(el("p", {class: "lock-done"},
          `Locked: ${j.lock} (${j.fixed} decisions). ${values}`
          + `(free decisions within ${Number(j.exploitability).toPrecision(2)} of a best answer). `
          + `The re-solved strategy here: ${here}.`));
        return;
      }
    })}, "Re-solve"),
    result);
  return form;
}

function browseDealEditor() {
  const box = $("#b-deal-editor");
  if (!box.classList.contains("hidden")) { box.classList.add("hidden"); return; }
  box.replaceChildren(el("b", {}, "Deal:"));
  const names = [...new Set(RUN.face_down_cards)];
  const selects = [];
  B.layout.forEach((card, i) => {
    if (i >= RUN.positions - RUN.traitors) {
      box.append(el("span", {}, `${i}: Traitor (face up)`));
      return;
    }
    const s = el("select", {"aria-label": `position ${i}`}, names.map((n) => el("option", {value: n, selected: n === card}, n)));
    selects.push(s);
    box.append(el("label", {}, `${i}: `, s));
  });
  box.append(el("button", {class: "primary", onclick: guarded(async () => {
    const layout = selects.map((s) => s.value).concat(Array(RUN.traitors).fill("Traitor"));
    const old = B.layout;
    B.layout = layout;
    B.timeline = []; B.cursor = -1;
    try { await browseGo([]); box.classList.add("hidden"); } catch (e) { B.layout = old; throw e; }
  })}, "Deal these cards"));
  box.classList.remove("hidden");
}

async function browseStrategyMove() {
  const d = B.view.decision;
  if (!d) return;
  await browseGo([...B.view.actions, sample(d.actions).text]);
}

async function browseFinish() {
  for (let i = 0; i < 400 && B.view.decision; i++) await browseStrategyMove();
}

// ----- Ask ---------------------------------------------------------------------------
let askLoaded = false;
async function loadAsk() {
  if (askLoaded) return;
  askLoaded = true;
  let data;
  try { data = await api("/api/ask"); } catch (e) { askLoaded = false; throw e; }
  const body = $("#ask-body");
  body.replaceChildren(el("p", {class: "muted"}, `Statistics: ${data.statistics}.`));
  if (data.two_player_only) {   // three or four seats: the balance, without examples
    document.querySelector("#ask .lead").textContent = "The table's balance for this strategy.";
  }
  for (const t of data.tables) {
    const head = el("tr", {}, t.index_names.map((n) => el("th", {}, n)),
                    t.columns.map((c) => el("th", {class: "num"}, c)));
    const rows = t.rows.map((r) => el("tr", {},
      r.index.map((x) => el("th", {}, x)),
      r.values.map((val, j) => {
        const ex = (r.examples || [])[j] || [];
        const show = (x) => x === null ? "–" : t.percent[j] ? pct(x) : x.toFixed(3);
        const ci = (r.intervals || [])[j];
        const td = el("td", {class: "num" + (ex.length ? " cell" : ""),
                             title: ex.length ? "Open an example situation" : null}, show(val),
                      ex.length ? el("span", {class: "ex"}, ` ${ex.length}`) : null,
                      ci && ci[0] !== null ? el("div", {class: "ci", title: "95% interval (sampled self-play)"},
                                                `${show(ci[0])} – ${show(ci[1])}`) : null);
        if (t.percent[j] && val !== null) td.style.background = `rgba(63,127,191,${(0.35 * val).toFixed(3)})`;
        if (ex.length) td.addEventListener("click", guarded(() => openExample(ex[0])));
        return td;
      })));
    body.append(el("div", {class: "panel ask-table", id: `ask-${t.id}`}, el("h3", {}, t.title),
      t.note ? el("p", {class: "muted"}, t.note) : null,
      el("table", {}, el("thead", {}, head), el("tbody", {}, rows))));
  }
}

async function openExample(ex) {
  $("#b-deal-editor").classList.add("hidden");
  B.layout = ex.layout;
  B.seed = ex.seed;
  B.timeline = []; B.cursor = -1;
  switchTab("browse");
  await browseGo(ex.actions);
}

// ----- Play --------------------------------------------------------------------------
const P = {id: null, view: null, renders: 0};

async function playStart() {
  const seat = Number(document.querySelector("input[name=p-seat]:checked").value);
  const match = document.querySelector("input[name=p-mode]:checked").value === "match";
  const searchBox = document.querySelector("#p-search");
  const search = Boolean(searchBox && searchBox.checked && !searchBox.disabled);
  // ?seed=N in the page's address replays the same deals and AI draws (tests, demos)
  const seed = new URLSearchParams(location.search).get("seed");
  const body = seed === null ? {seat, match} : {seat, match, seed: Number(seed)};
  if (search) body.search = true;
  const r = await api("/api/play", body);
  P.id = r.id;
  renderPlay(r.view);
}

async function playMove(text) {
  renderPlay(await api(`/api/play/${P.id}/move`, {action: text}));
}

async function playNext() {
  renderPlay(await api(`/api/play/${P.id}/next`, {}));
}

function renderPlay(v) {
  P.view = v;
  document.body.dataset.playRenders = ++P.renders;  // lets tests wait for the answer
  $("#p-setup").classList.add("hidden");
  $("#p-game").classList.remove("hidden");
  const names = v.names || {[v.seat]: "You", [1 - v.seat]: "AI"};
  const table = v.players > 2;
  $("#p-score").replaceChildren(
    el("span", {}, v.mode === "match" ? `Best of 3 · round ${v.round}` : "One round"),
    table ? tallyEl(v)
      : el("span", {}, "You ", el("b", {id: "p-wins-you"}, v.wins.you), " – ", el("b", {id: "p-wins-ai"}, v.wins.ai), " AI"),
    el("span", {class: "muted"}, v.you_start ? "you started this round"
      : table ? `${v.starter} started this round` : "the AI started this round"),
    ...(v.search ? [el("span", {class: "muted", id: "p-searching"}, "the AI searches")] : []));
  if (v.round_over) renderBoard($("#p-board"), v.reveal.board, {names, truth: true});
  else renderBoard($("#p-board"), v.board, {names});
  const box = $("#p-actions");
  box.replaceChildren();
  if (v.decision) {
    box.append(el("h3", {}, "Your move"),
      el("div", {class: "moves", id: "p-moves"}, v.decision.actions.map((a) =>
        el("button", {dataset: {action: a.text}, onclick: guarded(() => playMove(a.text))}, a.label))));
  } else if (v.round_over) {
    if (table) box.append(...tableResultEls(v));
    else {
      const w = v.board.winner;
      const cls = w === null ? "" : w === v.seat ? "win" : "loss";
      box.append(el("div", {class: `result ${cls}`, id: "p-result"},
        w === null ? v.board.result : w === v.seat ? "You won the round" : "The AI won the round"));
    }
    if (v.over) {
      if (v.match_result) box.append(el("div", {class: "result", id: "p-match-result"}, v.match_result));
      box.append(el("button", {class: "primary", id: "p-new", onclick: () => {
        $("#p-game").classList.add("hidden"); $("#p-setup").classList.remove("hidden"); }}, "New game"));
    } else {
      box.append(el("button", {class: "primary", id: "p-next", onclick: guarded(playNext)}, "Next round"));
    }
  } else {
    box.append(el("p", {class: "muted"}, "The AI is thinking…"));
  }
  const log = $("#p-log");
  log.replaceChildren(...v.log.map((line) => el("li", {class: line.private ? "private" : ""}, line.text)));
  if (!v.log.length) log.append(el("li", {class: "muted"}, "nothing yet"));
  log.scrollTop = log.scrollHeight;
  renderReview(v);
}

// Three or four players: round wins by side (each player, or each team) and draws.
function tallyEl(v) {
  return el("span", {id: "p-tally"}, v.tally.map((t, i) => el("span", {class: "side" + (t.you ? " mine" : "")},
      i ? " · " : "", `${t.side} `, el("b", {id: t.you ? "p-wins-you" : null}, t.wins))),
    el("span", {class: "muted"}, ` · draws ${v.draws}`));
}

// Three or four players: who won the finished round (your team, in team mode) and how.
function tableResultEls(v) {
  const r = v.round_result;
  const cls = r.you_won === null ? "" : r.you_won ? "win" : "loss";
  const head = r.you_won === null ? "A draw"
    : r.you_won ? (v.teams ? "Your team won the round" : "You won the round")
    : `${r.winners.join(" and ")} won the round`;
  return [el("div", {class: `result ${cls}`, id: "p-result"}, head),
          el("p", {class: "muted", id: "p-result-how"}, r.text)];
}

function renderReview(v) {
  const box = $("#p-review");
  if (!v.reveal) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const why = RUN.two_player_only || {};
  const exact = RUN.kind === "exact" && !why.values;   // EVs and the EV cost
  const mccfr = RUN.kind !== "exact";
  const r = v.reveal;
  box.replaceChildren(el("h3", {}, "Review: your decisions against the strategy"));
  if (RUN.kind === "exact" && why.values) box.append(el("p", {class: "muted", id: "p-two-player-only"}, why.values));
  if (!r.review.length) box.append(el("p", {class: "muted"}, "You made no decision this round."));
  else {
    const head = el("tr", {}, el("th", {}, "turn"), el("th", {}, "situation"), el("th", {}, "you chose"),
      el("th", {}, "the strategy there"), exact ? el("th", {class: "num", title: "EV of the strategy's mix minus EV of your choice, for you, given what you knew"}, "EV cost") : null,
      mccfr ? el("th", {class: "num"}, "visits") : null);
    const rows = r.review.map((x) => el("tr", {},
      el("td", {}, x.turn), el("td", {}, x.situation, x.on_path === false
        ? el("div", {class: "muted", title: "The strategy itself never plays into this situation, so its probabilities here were never trained; the EVs still follow from it"}, "off the strategy's own path") : null),
      el("td", {class: "chosen"}, x.chosen, el("div", {class: "muted"}, `strategy: ${fmtProb(x.chosen_prob)}`)),
      el("td", {}, el("div", {class: "mini"}, x.actions.map((a) => el("div", {class: "row" + (a.chosen ? " chosen" : "")},
        el("span", {}, a.label), el("span", {class: "num"}, fmtProb(a.prob)),
        el("div", {class: "bar"}, el("div", {style: `width:${(100 * a.prob).toFixed(2)}%`})),
        exact ? el("span", {class: "num"}, a.ev === null ? "" : signed(a.ev)) : el("span"))))),
      exact ? el("td", {class: "num " + (x.cost === null ? "" : x.cost > 0.005 ? "cost-bad" : "cost-ok")},
                 x.cost === null ? "n/a" : signed(x.cost)) : null,
      mccfr ? el("td", {class: "num"}, x.visits === null ? "n/a" : x.visits) : null));
    box.append(el("table", {id: "p-review-table"}, el("thead", {}, head), el("tbody", {}, rows)));
    if (exact && r.total_cost !== null) box.append(el("p", {}, `Total EV given away this round: ${signed(r.total_cost)}`));
  }
  box.append(el("p", {class: "muted"}, `Deal: ${r.layout.join(", ")}`),
    el("pre", {class: "snippet"}, r.actions.join(", ")),
    el("button", {onclick: guarded(() => openExample({layout: r.layout, seed: 0, actions: r.actions}))}, "Open this round in Browse"));
}

// ----- tabs, keys, start -------------------------------------------------------------
function switchTab(name) {
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.id === name));
  if (name === "ask") loadAsk().catch((e) => toast(e.message));
}

async function start() {
  RUN = await api("/api/run");
  const searchBox = document.querySelector("#p-search");
  if (searchBox && RUN.kind === "exact") {   // an exact strategy is played as solved
    searchBox.disabled = true;
    searchBox.parentElement.title = "Exact runs are equilibria: the AI plays them as solved";
  }
  if (RUN.players > 2) setUpTable(searchBox);
  const summary = RUN.kind === "exact"
    ? `exact ${RUN.algorithm || ""}, ` + (RUN.players > 2
        ? `NashConv ${RUN.nash_conv === null || RUN.nash_conv === undefined ? "n/a" : Number(RUN.nash_conv).toPrecision(3)}`
        : `exploitability ${RUN.exploitability === null || RUN.exploitability === undefined ? "n/a" : Number(RUN.exploitability).toPrecision(2)}`)
      + (RUN.locks && RUN.locks.length ? `; locked: ${RUN.locks.join("; ")}` : "")
    : `Monte Carlo CFR, ${RUN.iterations ? RUN.iterations.toLocaleString() : "?"} iterations${RUN.visits_recorded ? "" : " (no visit counts recorded)"}`;
  $("#run-info").replaceChildren(el("b", {}, RUN.name), " · ", RUN.variant, el("br"), summary);
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => switchTab(b.dataset.tab)));
  $("#b-random").addEventListener("click", guarded(() => browseNewDeal()));
  $("#b-edit").addEventListener("click", () => browseDealEditor());
  $("#b-viewer").addEventListener("change", () => renderBrowse());
  $("#b-start").addEventListener("click", guarded(() => browseGo([])));
  $("#b-back").addEventListener("click", guarded(async () => { if (B.cursor > 0) { B.cursor--; await browseGo(B.timeline[B.cursor], false); } }));
  $("#b-forward").addEventListener("click", guarded(async () => { if (B.cursor < B.timeline.length - 1) { B.cursor++; await browseGo(B.timeline[B.cursor], false); } }));
  $("#b-step").addEventListener("click", guarded(browseStrategyMove));
  $("#b-finish").addEventListener("click", guarded(browseFinish));
  $("#b-copy").addEventListener("click", () => {
    if (navigator.clipboard) navigator.clipboard.writeText($("#b-snippet").textContent).then(() => toast("Copied"), () => toast("Copy it by hand: the clipboard is not available here"));
  });
  $("#p-start").addEventListener("click", guarded(playStart));
  document.addEventListener("keydown", (e) => {
    if (!$("#browse").classList.contains("active") || e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") $("#b-back").click();
    else if (e.key === "ArrowRight") $("#b-forward").click();
    else if (e.key === "s") $("#b-step").click();
  });
  window.addEventListener("hashchange", () => openLink().catch((e) => toast(e.message)));
  if (!(await openLink())) await browseNewDeal();
}

// Three or four seats: See as every seat, choose any seat to play, and say why what is
// two-player only is off.
function setUpTable(searchBox) {
  const viewer = $("#b-viewer");
  for (let p = 2; p < RUN.players; p++) viewer.append(el("option", {value: String(p)}, `P${p}`));
  const team = (p) => RUN.teams ? ` (team ${p % 2}+${p % 2 + 2})` : "";
  $("#p-seats").replaceChildren(...[...Array(RUN.players).keys()].map((p) => el("label", {},
    el("input", {type: "radio", name: "p-seat", value: String(p), checked: p === 0}),
    ` Seat ${p}${p === RUN.first_player ? ", plays first" : ""}${team(p)}`)));
  const others = RUN.teams ? "The strategy plays every other seat, your partner (seat + 2) included"
    : "The strategy plays every other seat";
  $("#p-setup-note").textContent = `${others}, drawing every move from its probabilities. `
    + "You see only what your seat sees; everything is revealed at the end, with a review of your decisions.";
  const why = RUN.two_player_only.search;
  if (searchBox && why) {
    searchBox.disabled = true;
    searchBox.checked = false;
    searchBox.parentElement.title = why;
    searchBox.parentElement.after(el("span", {class: "muted why", id: "p-search-why"}, why));
  }
}

// A #browse={layout, seed, actions} link (b-link) opens that state on the board.
async function openLink() {
  const m = location.hash.match(/^#browse=(.*)$/);
  if (!m) return false;
  let s;
  try { s = JSON.parse(decodeURIComponent(m[1])); } catch (e) {
    toast(`That link does not open: ${e.message}`);
    return false;
  }
  const v = B.view;
  if (v && JSON.stringify({layout: v.layout, seed: v.seed, actions: v.actions}) === JSON.stringify(s)) {
    return true;  // the link to the state on the board: keep its back/forward history
  }
  B.layout = s.layout; B.seed = s.seed || 0;
  B.timeline = []; B.cursor = -1;
  switchTab("browse");
  try { await browseGo(s.actions || []); } catch (e) {
    toast(`That link does not open: ${e.message}`);
    return false;
  }
  return true;
}

start().catch((e) => toast(e.message));
