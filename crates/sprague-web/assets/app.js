// The sprague page: three views over the JSON API. No build step: plain JavaScript.
"use strict";

const $ = (id) => document.getElementById(id);

/** GET an API path with query parameters; resolves to JSON or throws the server's message. */
async function api(path, params) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/${path}?${query}`);
  const body = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) {
    const error = new Error(body.error || `the server answered ${response.status}`);
    error.status = response.status;
    error.didYouMean = body.did_you_mean;
    throw error;
  }
  return body;
}

/** The input fields of each view's error box, and how to run the view again. */
const retries = {
  "explore-error": { fields: ["explore-game", "explore-position"], run: () => explore() },
  "play-error": { fields: ["play-game", "play-position"], run: () => newGame() },
  "sequences-error": { fields: ["sequences-game"], run: () => plotSequence() },
};

/**
 * Shows an error under a view (or hides the box). An unknown game name near a catalog name
 * gets a button that puts the catalog's name in its place and runs the view again.
 */
function showError(id, error) {
  const box = $(id);
  if (!error) {
    box.hidden = true;
    return;
  }
  box.replaceChildren(error.message || String(error));
  const near = error.didYouMean;
  const retry = retries[id];
  if (near && retry) {
    const rename = (word) =>
      word.toLowerCase() === near.typed.toLowerCase() || word.toLowerCase().startsWith(`${near.typed.toLowerCase()}:`)
        ? near.game + word.slice(near.typed.length)
        : word;
    const button = element("button", {
      type: "button",
      class: "did-you-mean",
      text: `Use ${near.game}`,
      onclick: () => {
        for (const field of retry.fields) $(field).value = $(field).value.split(" ").map(rename).join(" ");
        if (id === "play-error" && $("play-preset").value !== "custom") $("play-preset").value = "custom";
        retry.run();
      },
    });
    box.append(" ", button);
  }
  box.hidden = false;
}

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

/**
 * Colours a node by a move's value for the mover as GamesmanUni does (win green, tie yellow,
 * draw blue, lose dark red), paler the longer the game lasts.
 */
function shade(node, value, remoteness, longest) {
  const kind = { tie: "draw", draw: "loop" }[value] ?? value;
  node.classList.add(`value-${kind}`, "shaded");
  const r = remoteness ?? 0;
  const alpha = longest > 0 ? 1 - 0.55 * (r / longest) : 1;
  node.style.setProperty("--alpha", alpha.toFixed(2));
  node.style.setProperty("--text", kind === "draw" || alpha < 0.6 ? "#222" : "#fff");
}

const outcomeWords = {
  N: "N: the player to move wins",
  P: "P: the player to move loses",
  D: "D: neither player can force a win",
};

// ---------------------------------------------------------------- views

function showView() {
  const name = (location.hash || "#explore").slice(1);
  for (const view of document.querySelectorAll(".view")) view.hidden = view.id !== name;
  for (const link of document.querySelectorAll("nav a")) {
    link.classList.toggle("active", link.dataset.view === name);
  }
  if (name === "play" && !play.state) newGame();
  if (name === "sequences" && $("sequences-result").hidden) plotSequence();
}

// ---------------------------------------------------------------- explore

let catalog = [];

async function loadCatalog() {
  catalog = await api("catalog", {});
  const select = $("explore-catalog");
  select.append(element("option", { value: "", text: "choose a game…" }));
  catalog.forEach((entry, i) => {
    select.append(element("option", { value: String(i), text: `${entry.spec}: ${entry.summary}` }));
  });
  syntaxHint();
}

function syntaxHint() {
  const entry = entryOf($("explore-game").value);
  $("explore-syntax").textContent = entry
    ? `Position: ${entry.position}. Example: ${entry.example}. Join a sum of games with " + ".`
    : "";
}

function pickFromCatalog() {
  const entry = catalog[Number($("explore-catalog").value)];
  if (!entry) return;
  const [game, ...rest] = entry.example.split(" ");
  $("explore-game").value = game;
  // The examples are written for a shell: drop its quotes.
  $("explore-position").value = rest.join(" ").replace(/'/g, "");
  syntaxHint();
  explore();
}

async function explore() {
  const params = {
    game: $("explore-game").value.trim(),
    position: $("explore-position").value.trim(),
  };
  if ($("explore-misere").checked) params.misere = "1";
  explored.selected = null;
  $("explore-why").hidden = true;
  explored.whyFor = params;
  if (isPartizan(params)) {
    try {
      const [report, moves] = await Promise.all([api("value", params), api("moves", params)]);
      renderPartizan(report, moves, params);
      showError("explore-error", null);
      showWhy(params);
    } catch (error) {
      $("explore-result").hidden = true;
      showError("explore-error", error);
    }
    return;
  }
  try {
    const answer = await api("play", params);
    showError("explore-error", null);
    renderExplore(answer.state, params);
    showWhy(params);
  } catch (error) {
    if (error.status === 422) {
      // Too many moves to rate one by one (a huge heap): the value report still answers.
      try {
        const report = await api("value", params);
        showError("explore-error", null);
        renderValueOnly(report, params, error.message);
        showWhy(params);
        return;
      } catch (second) {
        error = second;
      }
    }
    $("explore-result").hidden = true;
    showError("explore-error", error);
  }
}

const explored = { state: null, params: null, selected: null, whyFor: null };

/**
 * The "Why" panel: the explanation `sprague value --explain` prints, as the library words it
 * (a sum's XOR in binary, a closed form with its numbers, or the winning line with remoteness).
 */
async function showWhy(params) {
  const box = $("explore-why");
  box.hidden = true;
  let report;
  try {
    report = await api("value", { ...params, explain: "1" });
  } catch {
    return; // the analysis above already answered; no explanation within the limits
  }
  if (explored.whyFor !== params) return; // the user moved on meanwhile
  const lines = report.explanation || [];
  if (lines.length === 0) return;
  $("explore-why-text").textContent = lines.join("\n");
  box.hidden = false;
}

/** The catalog entry of a spec, by its name. */
function entryOf(spec) {
  const game = spec.trim().toLowerCase();
  return catalog.find((e) => e.spec === game) || catalog.find((e) => game === e.name || game.startsWith(`${e.name}:`));
}

/** Whether any game of the sum is partizan (its catalog entry says so). */
function isPartizan(params) {
  const games = [params.game];
  const words = params.position.split(/\s+/);
  words.forEach((w, i) => {
    if (w === "+" && i + 1 < words.length) games.push(words[i + 1]);
  });
  return games.some((g) => entryOf(g)?.kind === "partizan");
}

/** A position's JSON as the words after its game (heaps joined by spaces). */
function positionWords(json) {
  return Array.isArray(json) ? json.join(" ") : String(json);
}

/** The game and position fields that name a partizan move's result. */
function partizanTarget(report, m) {
  if (!Array.isArray(m.position) || typeof m.position[0] !== "object") {
    return { game: report.game, next: positionWords(m.position) };
  }
  const [first, ...rest] = m.position;
  const next = [positionWords(first.position), ...rest.map((c) => `+ ${c.game} ${positionWords(c.position)}`)];
  return { game: first.game, next: next.join(" ") };
}

const classWords = {
  L: "L: Left wins, whoever starts",
  R: "R: Right wins, whoever starts",
  N: "N: the player to move wins",
  P: "P: the player to move loses",
};

/** A partizan position: canonical form, outcome class, mean, temperature, the thermograph,
 * and each player's moves with the value after them (green: wins for the mover). */
/** Names the third column of the moves table. */
function thirdColumn(name) {
  $("explore-moves").querySelectorAll("th")[2].textContent = name;
}

function renderPartizan(report, moves, params) {
  thirdColumn("value after");
  const summary = $("explore-summary");
  summary.replaceChildren(
    element("span", { class: `badge ${report.outcome === "P" ? "P" : "N"}`, text: report.outcome }),
    element("span", { text: classWords[report.outcome] }),
    element("span", {}, ["canonical form ", element("span", { class: "big", id: "explore-canonical", text: report.canonical_form })]),
    element("span", {}, ["mean ", element("span", { class: "big", text: report.mean })]),
    element("span", {}, ["temperature ", element("span", { class: "big", text: report.temperature })]),
  );
  const query = new URLSearchParams({ game: params.game, position: params.position }).toString();
  $("explore-visual").replaceChildren(
    element("img", { src: `/api/thermograph.svg?${query}`, alt: `thermograph of ${report.canonical_form}`, class: "thermograph" }),
  );
  const body = $("explore-moves").querySelector("tbody");
  body.replaceChildren();
  for (const [who, list] of [["Left", moves.left_moves], ["Right", moves.right_moves]]) {
    for (const m of list) {
      const target = partizanTarget(report, m);
      const row = element("tr", { title: "explore this position", onclick: () => goTo(target) }, [
        element("td", { text: `${who}: ${m.move}` }),
        element("td", { text: m.wins ? `wins for ${who}` : `loses for ${who}` }),
        element("td", { text: m.canonical_form }),
        element("td", { text: "–" }),
        element("td", { text: `${target.game} ${target.next}` }),
      ]);
      shade(row, m.wins ? "win" : "lose", 0, 0);
      body.append(row);
    }
    if (list.length === 0) {
      body.append(element("tr", {}, [element("td", { colspan: "5", text: `${who} has no move` })]));
    }
  }
  setJsonLinks(params);
  $("explore-result").hidden = false;
}

function goTo(m) {
  $("explore-game").value = m.game;
  $("explore-position").value = m.next;
  explore();
}

/** The headline of a position: outcome badge, nim value, value, remoteness. */
function renderSummary(state) {
  const summary = $("explore-summary");
  summary.replaceChildren(
    element("span", { class: `badge ${state.outcome}`, text: state.outcome }),
    element("span", { text: outcomeWords[state.outcome] }),
  );
  const facts = [];
  if (state.nim_value !== null && state.nim_value !== undefined) facts.push(["nim value", state.nim_value]);
  if (state.value !== undefined) facts.push(["value", state.value]);
  if (state.remoteness !== null && state.remoteness !== undefined) facts.push(["remoteness", state.remoteness]);
  if (state.draw_level !== undefined && state.draw_level !== null) facts.push(["draw level", state.draw_level]);
  for (const [name, value] of facts) {
    summary.append(element("span", {}, [`${name} `, element("span", { class: "big", text: String(value) })]));
  }
}

function renderValueOnly(report, params, why) {
  thirdColumn("nim value");
  renderSummary(report);
  $("explore-quotient").hidden = true;
  $("explore-visual").replaceChildren(element("p", { class: "hint", text: `Only the winning moves are listed: ${why}.` }));
  const body = $("explore-moves").querySelector("tbody");
  body.replaceChildren();
  for (const m of report.winning_moves) {
    const row = element("tr", {}, [
      element("td", { text: m.move }),
      element("td", { text: "win" }),
      element("td", { text: "0" }),
      element("td", { text: "–" }),
      element("td", { text: JSON.stringify(m.position) }),
    ]);
    shade(row, "win", 0, 0);
    body.append(row);
  }
  setJsonLinks(params);
  $("explore-result").hidden = false;
}

function setJsonLinks(params) {
  const query = new URLSearchParams(params).toString();
  $("explore-json-value").href = `/api/value?${query}`;
  $("explore-json-moves").href = `/api/moves?${query}`;
}

function renderExplore(state, params) {
  thirdColumn("nim value");
  explored.state = state;
  explored.params = params;
  renderSummary(state);
  const visual = $("explore-visual");
  const select = {
    selected: explored.selected,
    onSelect: (i) => {
      explored.selected = explored.selected === i ? null : i;
      renderExplore(state, params);
    },
  };
  if (state.kind === "board") visual.replaceChildren(renderBoard(state, { hint: true, onMove: goTo }));
  else if (state.kind === "heaps") visual.replaceChildren(renderHeaps(state, select));
  else if (state.kind === "coins") visual.replaceChildren(renderCoins(state, select));
  else visual.replaceChildren();
  const longest = Math.max(0, ...state.moves.map((m) => m.remoteness ?? 0));
  const body = $("explore-moves").querySelector("tbody");
  body.replaceChildren();
  const shown = state.moves.filter((m) => explored.selected === null || (m.component ?? 0) === explored.selected);
  for (const m of shown) {
    const row = element("tr", { title: "explore this position", onclick: () => goTo(m) }, [
      element("td", { text: m.label }),
      element("td", { text: m.value }),
      element("td", { text: m.nim_value ?? "–" }),
      element("td", { text: m.remoteness ?? "–" }),
      element("td", { text: `${m.game} ${m.next}`.trim() }),
    ]);
    shade(row, m.value, m.remoteness, longest);
    body.append(row);
  }
  if (state.moves.length === 0) {
    body.append(element("tr", {}, [element("td", { colspan: "5", text: "no moves: the game is over" })]));
  }
  setJsonLinks(params);
  $("explore-result").hidden = false;
  showQuotient(state, params);
}

/** The largest quotient whose multiplication table the page draws. */
const QUOTIENT_TABLE = 16;

/**
 * Under misère play, a sum of heaps of one heap game: the game's misère quotient, the element
 * of each heap of the position, and the multiplication table when it is small. The quotient is
 * asked for within the bounds `value` uses for sums (256 elements), so wild games answer fast.
 */
async function showQuotient(state, params) {
  const box = $("explore-quotient");
  box.hidden = true;
  if (!params.misere || state.kind !== "heaps" || params.position.includes("+")) return;
  let q;
  try {
    q = await api("quotient", { game: params.game, max_order: "256" });
  } catch {
    return; // not a heap game with rules: nothing to show
  }
  if (explored.params !== params) return; // the user moved on meanwhile
  const title = element("h3", { text: `The misère quotient of ${q.game}` });
  if (q.infinite) {
    box.replaceChildren(title, element("p", { class: "hint", text: `It has more than 256 elements by heap ${q.runaway.heap}: sums are searched instead.` }));
    box.hidden = false;
    return;
  }
  const words = q.words;
  const p = q.p_portion.map((x) => words[x]);
  const facts = [
    `order ${q.order}, presentation ${q.presentation}`,
    `P-portion {${p.join(", ")}}: a sum is a misère P-position exactly when its heaps multiply to one of these`,
    q.period
      ? `proven for every heap: heap n + ${q.period.period} has the element of heap n from n = ${q.period.preperiod}`
      : `the quotient of heaps 0..${q.max_heap} only (no period proven)`,
  ];
  const heaps = params.position.split(/\s+/).filter(Boolean).map(Number);
  const cells = heaps.map((n) => `${n} → ${n <= q.max_heap ? words[q.heaps[n]] : "(by the period)"}`);
  let product = "";
  if (heaps.every((n) => n <= q.max_heap)) {
    // read off the table: the element of the whole sum
    const x = heaps.reduce((acc, n) => q.multiply[acc][q.heaps[n]], q.identity);
    product = `; together ${words[x]}, ${q.p_portion.includes(x) ? "in" : "not in"} the P-portion`;
  }
  const children = [title, ...facts.map((text) => element("p", { text })), element("p", { text: `This position: ${cells.join(", ")}${product}.` })];
  if (q.order <= QUOTIENT_TABLE) {
    const head = element("tr", {}, [element("th", { text: "×" }), ...words.map((w) => element("th", { text: w }))]);
    const rows = q.multiply.map((row, a) =>
      element("tr", {}, [element("th", { text: words[a] }), ...row.map((x) => element("td", { text: words[x], class: q.p_portion.includes(x) ? "p-element" : "" }))]),
    );
    children.push(element("table", { class: "quotient-table" }, [element("thead", {}, [head]), element("tbody", {}, rows)]));
    children.push(element("p", { class: "hint", text: "Products in the P-portion are marked." }));
  } else {
    children.push(element("p", { class: "hint", text: `The multiplication table (${q.order} × ${q.order}) is in the JSON: /api/quotient?game=${q.game}.` }));
  }
  box.replaceChildren(...children);
  box.hidden = false;
}

// ---------------------------------------------------------------- play

const play = {
  game: "",
  history: [], // {state, humanToMove, point}
  state: null,
  hint: false,
  busy: false,
  selected: null,
};

/**
 * The value of the position after `moves` moves for the player who moved first (the chart
 * keeps that one point of view): a letter (w, l, t, d) and the remoteness, or a draw's level.
 * The API's outcome is for the player to move, who is the first player after an even number of
 * moves.
 */
function historyPoint(state, moves) {
  const known = (x) => x !== null && x !== undefined;
  if (state.outcome === "D") {
    const tie = state.draw_kind === "tie" || (state.draw_kind === undefined && known(state.remoteness));
    if (tie) return `t${known(state.remoteness) ? state.remoteness : ""}`;
    return `d${known(state.draw_level) ? state.draw_level : ""}`;
  }
  const firstToMove = moves % 2 === 0;
  const letter = (state.outcome === "N") === firstToMove ? "w" : "l";
  return letter + (known(state.remoteness) ? String(state.remoteness) : "");
}

/** Who moved first, in words. */
function firstPlayer() {
  return play.history.length > 0 && !play.history[0].humanToMove ? "the engine" : "you";
}

/** The position now for the first player: who wins and in how many moves, a draw's level, a
 * scored game's margin. */
function factsText() {
  const state = play.state;
  if (!state) return "";
  const moves = play.history.length - 1;
  const forFirst = moves % 2 === 0 ? 1 : -1;
  const parts = [`First player: ${firstPlayer()}.`];
  if (state.outcome === "D") {
    if (state.draw_kind === "loop" || state.draw_level !== undefined) {
      parts.push(`A draw: neither player can force a win${state.draw_level !== undefined ? ` (draw level ${state.draw_level})` : ""}.`);
    } else {
      parts.push(`A tie with perfect play${state.remoteness !== null ? `, ${state.remoteness} moves to the end` : ""}.`);
    }
  } else {
    const firstWins = (state.outcome === "N") === (forFirst === 1);
    const who = firstWins ? "the first player" : "the second player";
    const r = state.remoteness !== null && state.remoteness !== undefined ? ` (remoteness ${state.remoteness})` : "";
    parts.push(`With perfect play ${who} wins${r}.`);
  }
  if (state.value !== undefined) {
    const margin = forFirst * state.value;
    parts.push(margin === 0 ? "Score: level." : `Score: the first player ${margin > 0 ? "wins" : "loses"} by ${Math.abs(margin)}.`);
  }
  return parts.join(" ");
}

function selectedGame() {
  const preset = $("play-preset").value;
  if (preset === "custom") return { game: $("play-game").value.trim(), position: $("play-position").value.trim() };
  const [game, position] = preset.split("|");
  return { game, position };
}

async function request(params) {
  play.busy = true;
  renderPlay();
  try {
    const answer = await api("play", params);
    showError("play-error", null);
    return answer;
  } catch (error) {
    showError("play-error", error);
    return null;
  } finally {
    play.busy = false;
  }
}

function push(state, humanToMove, label) {
  play.history.push({ state, humanToMove, label, point: historyPoint(state, play.history.length) });
  play.state = state;
  play.selected = null;
}

async function newGame() {
  const { game, position } = selectedGame();
  // Forget the last game at once: its status ("Game over", the engine's last move) and board.
  play.history = [];
  play.state = null;
  play.lastReply = null;
  play.result = "";
  const answer = await request({ game, position });
  if (answer) {
    play.history = [];
    push(answer.state, true);
  }
  renderPlay();
}

async function humanMove(m) {
  if (play.busy || !play.state || play.state.over || !current().humanToMove) return;
  const after = await request({ game: m.game, position: m.next });
  if (!after) return renderPlay();
  push(after.state, false, m.label);
  renderPlay();
  if (!after.state.over) await engineMove();
}

async function engineMove() {
  const state = play.state;
  if (!state || state.over) return;
  const answer = await request({ game: state.game, position: state.text, engine: "1" });
  if (answer) {
    current().humanToMove = false;
    push(answer.state, true, answer.reply.label);
    play.lastReply = answer.reply.label;
  }
  renderPlay();
}

function current() {
  return play.history[play.history.length - 1];
}

function undo() {
  if (play.busy) return;
  // Back to the last earlier state where it was the human's turn.
  while (play.history.length > 1) {
    play.history.pop();
    if (current().humanToMove) break;
  }
  if (play.history.length === 1 && !current().humanToMove) current().humanToMove = true;
  play.state = current().state;
  play.selected = null;
  play.lastReply = null;
  renderPlay();
}

function statusText() {
  const state = play.state;
  if (!state) {
    play.result = "";
    return play.busy ? "Starting a new game…" : "";
  }
  const turn = current().humanToMove;
  if (state.over) {
    play.result = state.outcome === "D" ? "tie" : (state.outcome === "P") === turn ? "engine" : "you";
    return { tie: "Game over: a tie.", engine: "Game over: the engine wins.", you: "Game over: you win!" }[play.result];
  }
  play.result = "";
  if (play.busy || !turn) return "The engine is thinking…";
  const reply = play.lastReply ? `The engine played ${play.lastReply}. ` : "";
  return `${reply}Your move.`;
}

function movesFor(filter) {
  return play.state.moves.filter(filter);
}

function longestRemoteness() {
  return Math.max(0, ...play.state.moves.map((m) => m.remoteness ?? 0));
}

function moveButton(m) {
  const button = element("button", { type: "button", text: m.label, onclick: () => humanMove(m) });
  button.dataset.move = m.move;
  if (play.hint) {
    shade(button, m.value, m.remoteness, longestRemoteness());
    button.title = `${m.value}${m.remoteness !== null && m.remoteness !== undefined ? `, remoteness ${m.remoteness}` : ""}`;
  }
  return button;
}

/** A board of buttons; `hint` colours the empty cells by value, `onMove` plays a cell's move. */
function renderBoard(state, { hint, onMove }) {
  const { columns, rows, gravity } = state.layout;
  const cells = String(state.position);
  const board = element("div", { class: `board${gravity ? " gravity" : ""}` });
  board.style.gridTemplateColumns = `repeat(${columns}, 1fr)`;
  board.style.width = `min(100%, ${Math.min(26, columns * 5.5)}rem)`;
  const longest = Math.max(0, ...state.moves.map((m) => m.remoteness ?? 0));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      // Cell names as the engine writes them: a column letter and a row counted from the bottom,
      // or the column number when pieces drop.
      const cellName = gravity ? String(c + 1) : String.fromCharCode(97 + c) + String(rows - r);
      const piece = cells[r * columns + c];
      const m = piece === "." ? state.moves.find((move) => move.move === cellName) : undefined;
      const button = element("button", {
        type: "button",
        class: piece === "." ? "" : piece,
        text: piece === "." ? "" : piece,
        "aria-label": `${cellName} ${piece === "." ? "empty" : piece}`,
      });
      button.dataset.cell = `${String.fromCharCode(97 + c)}${rows - r}`;
      if (m) {
        button.dataset.move = m.move;
        button.addEventListener("click", () => onMove(m));
        if (hint) {
          shade(button, m.value, m.remoteness, longest);
          button.title = `${m.value}, remoteness ${m.remoteness}`;
        }
      } else {
        button.disabled = true;
      }
      board.append(button);
    }
  }
  return board;
}

/** The summands of a sum, flattened, as [{game, size}]. */
function parts(state) {
  const position = state.position;
  if (!Array.isArray(position)) return [];
  if (position.length > 0 && typeof position[0] === "object" && position[0] !== null && "game" in position[0]) {
    return position.flatMap((segment) => segment.position.map((size) => ({ game: segment.game, size })));
  }
  return position.map((size) => ({ game: state.game, size }));
}

/** The heaps of a sum as rows of tokens; clicking one calls `onSelect` with its index. */
function renderHeaps(state, { selected, onSelect }) {
  const box = element("div", { class: "heaps" });
  parts(state).forEach((part, i) => {
    const size = Number(part.size);
    const tokens = element("span", { class: "tokens" });
    for (let k = 0; k < Math.min(size, 60); k++) tokens.append(element("span", { class: "token" }));
    const heap = element("button", {
      type: "button",
      class: `heap${selected === i ? " selected" : ""}`,
      onclick: () => onSelect(i),
    }, [element("span", { class: "size", text: String(size) }), tokens, element("span", { class: "hint", text: part.game })]);
    heap.dataset.heap = String(i);
    box.append(heap);
  });
  return box;
}

/** A row of coins, heads marked; clicking a head calls `onSelect` with its index. */
function renderCoins(state, { selected, onSelect }) {
  const heads = parts(state).map((p) => Number(p.size));
  const last = Math.max(8, ...heads);
  const box = element("div", { class: "coins" });
  for (let n = 1; n <= last; n++) {
    const index = heads.indexOf(n);
    const coin = element("button", {
      type: "button",
      class: `coin${index >= 0 ? " heads" : ""}${index >= 0 && selected === index ? " selected" : ""}`,
      title: index >= 0 ? "heads: click to see the moves that turn it" : "tails",
      onclick: () => { if (index >= 0) onSelect(index); },
    }, [element("b", { text: index >= 0 ? "H" : "T" }), element("span", { text: String(n) })]);
    box.append(coin);
  }
  return box;
}

function renderPlay() {
  const state = play.state;
  $("play-status").textContent = statusText();
  $("play-status").dataset.result = play.result || "";
  $("play-hint").setAttribute("aria-pressed", String(play.hint));
  $("play-undo").disabled = play.busy || play.history.length <= 1;
  $("play-engine").disabled = play.busy || !state || state.over || !current().humanToMove;
  const board = $("play-board");
  const moves = $("play-moves");
  board.replaceChildren();
  moves.replaceChildren();
  if (!state) return;
  let listed = state.moves;
  if (state.kind === "board") {
    board.append(renderBoard(state, { hint: play.hint, onMove: humanMove }));
    listed = [];
  } else if (state.kind === "heaps" || state.kind === "coins") {
    const select = { selected: play.selected, onSelect: (i) => { play.selected = i; renderPlay(); } };
    board.append(state.kind === "heaps" ? renderHeaps(state, select) : renderCoins(state, select));
    if (play.selected !== null) {
      listed = movesFor((m) => (m.component ?? 0) === play.selected);
      board.append(element("p", { class: "hint", text: "Moves of the selected part:" }));
    } else {
      board.append(element("p", { class: "hint", text: "Click a part to see its moves, or pick any move:" }));
    }
  }
  for (const m of listed) moves.append(moveButton(m));
  $("play-facts").textContent = factsText();
  drawHistory();
}

/**
 * The visual value history, drawn by the server for the chart's width and put in the page
 * (so its points keep their tooltips).
 */
async function drawHistory() {
  const points = play.history.map((h) => h.point).join(",");
  const moves = play.history.slice(1).map((h) => h.label ?? "").join("\n");
  const box = $("play-chart");
  const width = Math.max(320, Math.min(1600, Math.floor(box.clientWidth || 640)));
  const query = new URLSearchParams({ points, moves, width: String(width) }).toString();
  if (box.dataset.query === query) return;
  box.dataset.query = query;
  const response = await fetch(`/api/plot/history.svg?${query}`);
  if (!response.ok || box.dataset.query !== query) return;
  box.innerHTML = await response.text();
  box.dataset.points = points;
  const unknown = play.history.some((h) => /^[wlt]$/.test(h.point));
  const note = play.history.map((h) => h.state.remoteness_note).find((n) => n);
  $("play-chart-note").textContent = unknown
    ? `The remoteness of some positions here is not known${note ? ` (${note})` : " (the library gives none for this game)"}: their points are hollow, half way along their side.`
    : "";
}

// ---------------------------------------------------------------- sequences

async function plotSequence() {
  const game = $("sequences-game").value.trim();
  const to = $("sequences-to").value.trim();
  try {
    const [table, period] = await Promise.all([
      api("table", { game, to }),
      api("period", { game, max: "100000" }).catch((error) => ({ error: error.message })),
    ]);
    showError("sequences-error", null);
    const parts = [`${table.game}: G(0..${to})`];
    if (table.period) {
      parts.push(`period ${table.period.period} from preperiod ${table.period.preperiod}, certified within this range`);
    } else if (period.period) {
      parts.push(`period ${period.period} from preperiod ${period.preperiod} (certified at n = ${period.certified_at}; plot further to see it marked)`);
    } else {
      parts.push("no period certified in this range");
    }
    $("sequences-summary").textContent = parts.join(" · ");
    // The chart is drawn for the width it is shown at: a phone gets larger labels, not a shrunk
    // desktop chart.
    $("sequences-result").hidden = false;
    const width = Math.max(320, Math.min(1600, Math.floor($("sequences-result").querySelector(".plot-box").clientWidth)));
    $("sequences-plot").src = `/api/plot/table.svg?${new URLSearchParams({ game, to, width: String(width) })}`;
    $("sequences-csv").href = `/api/table?${new URLSearchParams({ game, to, format: "csv" })}`;
    $("sequences-values").textContent = table.values.join(" ");
    $("sequences-result").hidden = false;
  } catch (error) {
    $("sequences-result").hidden = true;
    showError("sequences-error", error);
  }
}

// ---------------------------------------------------------------- wiring

$("explore-form").addEventListener("submit", (event) => { event.preventDefault(); explore(); });
$("explore-catalog").addEventListener("change", pickFromCatalog);
$("explore-game").addEventListener("input", syntaxHint);
$("play-form").addEventListener("submit", (event) => { event.preventDefault(); newGame(); });
$("play-preset").addEventListener("change", () => {
  $("play-custom").hidden = $("play-preset").value !== "custom";
  if ($("play-preset").value !== "custom") newGame();
});
$("play-engine").addEventListener("click", engineMove);
$("play-undo").addEventListener("click", undo);
$("play-hint").addEventListener("click", () => { play.hint = !play.hint; renderPlay(); });
$("sequences-form").addEventListener("submit", (event) => { event.preventDefault(); plotSequence(); });
window.addEventListener("hashchange", showView);
window.addEventListener("resize", () => { if (play.state) drawHistory(); });

loadCatalog().catch((error) => showError("explore-error", error));
showView();
explore();
