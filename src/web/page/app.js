// The page of `ttt serve` and of its static copy: every answer comes from the JSON API
// (docs/web.md), asked through engine.js; this script only draws them. No framework, no build
// step.
"use strict";

const MISTAKES = ["win_to_draw", "win_to_loss", "draw_to_loss"];
const LETTER = { win: "W", draw: "D", loss: "L" };
const $ = (id) => document.getElementById(id);

function dims(game) {
  const m = /^(\d+)x(\d+)/.exec(game);
  return m ? { rows: +m[1], columns: +m[2] } : { rows: 3, columns: 3 };
}

// ---- The board ----

// Draws `board` (text, rows split by '/') into `element`; `hints` (cell -> move value) colours
// the empty cells; `onPlay` makes empty cells buttons.
function drawBoard(element, game, board, options) {
  const { rows, columns } = dims(game);
  const marks = board.replaceAll("/", "");
  element.style.gridTemplateColumns = `repeat(${columns}, 1fr)`;
  element.replaceChildren();
  for (let i = 0; i < rows * columns; i++) {
    const cell = i + 1;
    const mark = marks[i] === "X" || marks[i] === "O" ? marks[i] : "";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "cell";
    button.dataset.cell = cell;
    button.setAttribute("role", "gridcell");
    if (mark) {
      button.textContent = mark;
      button.dataset.mark = mark;
      button.setAttribute("aria-label", `cell ${cell}: ${mark}`);
    } else {
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = cell;
      button.append(number);
      const hint = options.hints && options.hints.get(cell);
      let label = `cell ${cell}: empty`;
      if (hint) {
        button.classList.add(hint.value);
        button.dataset.value = hint.value;
        button.dataset.remoteness = hint.remoteness;
        const text = document.createElement("span");
        text.className = "hint";
        text.textContent = LETTER[hint.value] + hint.remoteness + (hint.best ? "★" : "");
        button.append(text);
        label += `, ${hint.value} in ${hint.remoteness}${hint.best ? ", best" : ""}`;
      }
      button.setAttribute("aria-label", label);
    }
    if (options.last === cell) button.classList.add("last");
    if (options.mistake === cell) button.classList.add("mistake");
    if (options.onPlay && !mark) {
      button.addEventListener("click", () => options.onPlay(cell));
    } else {
      button.setAttribute("aria-disabled", "true");
    }
    button.addEventListener("keydown", (event) => moveFocus(element, columns, cell, event));
    element.append(button);
  }
}

// Arrow keys move between cells.
function moveFocus(element, columns, cell, event) {
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns }[event.key];
  if (!step) return;
  const next = element.querySelector(`[data-cell="${cell + step}"]`);
  if (next) {
    next.focus();
    event.preventDefault();
  }
}

// ---- The value history chart ----

// One point a position of the game: its value and remoteness for X, from the review's plies
// (and, for the last position, from the last move's value).
function historyPoints(review) {
  const points = review.plies.map((ply) => ({
    ply: ply.ply - 1,
    ...forX(ply.player, ply.value_before, ply.remoteness_before),
  }));
  const last = review.plies[review.plies.length - 1];
  if (last) {
    points.push({ ply: last.ply, ...forX(last.player, last.value, last.remoteness - 1) });
  }
  return points;
}

function forX(player, value, remoteness) {
  const flip = { win: "loss", loss: "win", draw: "draw" };
  return { value: player === "X" ? value : flip[value], remoteness };
}

// An SVG chart: plies across, remoteness up for a win of X and down for a win of O, draws on
// the middle line; each mistake ringed and marked "!" at the ply it was made.
function drawChart(element, review, current) {
  const points = historyPoints(review);
  if (points.length === 0) {
    element.textContent = "No moves yet.";
    return;
  }
  const maxR = Math.max(1, ...points.map((p) => p.remoteness)) + 1;
  const plies = Math.max(points.length - 1, 1);
  const W = 400, H = 180, left = 44, right = 10, top = 14, mid = H / 2;
  const x = (ply) => left + ((W - left - right) * ply) / plies;
  const y = (p) => p.value === "draw" ? mid
    : mid + (p.value === "win" ? -1 : 1) * (mid - top) * (maxR - p.remoteness) / maxR;
  const svg = [`<svg viewBox="0 0 ${W} ${H + 16}" role="img" aria-label="Value history for X">`,
    `<line class="axis" x1="${left}" x2="${W - right}" y1="${mid}" y2="${mid}"/>`,
    `<line class="axis" x1="${left}" x2="${left}" y1="${top - 8}" y2="${H - top + 8}"/>`,
    `<text x="2" y="${top + 4}">X wins</text>`,
    `<text x="2" y="${mid + 4}">draw</text>`,
    `<text x="2" y="${H - top + 4}">O wins</text>`,
    `<text x="${left}" y="${H + 12}">ply 0</text>`,
    `<text x="${W - right - 30}" y="${H + 12}">ply ${points.length - 1}</text>`];
  svg.push(`<polyline class="path" points="${points.map((p) => `${x(p.ply)},${y(p)}`).join(" ")}"/>`);
  if (current !== undefined) {
    svg.push(`<line class="current" x1="${x(current)}" x2="${x(current)}" y1="${top}" y2="${H - top}"/>`);
  }
  for (const p of points) {
    const title = `ply ${p.ply}: ${p.value === "draw" ? "draw" : (p.value === "win" ? "X" : "O") + " wins"} in ${p.remoteness}`;
    svg.push(`<circle class="dot ${p.value}" cx="${x(p.ply)}" cy="${y(p)}" r="4"><title>${title}</title></circle>`);
    svg.push(`<text x="${x(p.ply) - 3}" y="${y(p) - 7}">${LETTER[p.value]}${p.remoteness}</text>`);
  }
  for (const ply of review.plies.filter((ply) => MISTAKES.includes(ply.verdict))) {
    const p = points[ply.ply - 1];
    svg.push(`<circle class="mistake-ring" data-ply="${ply.ply}" cx="${x(p.ply)}" cy="${y(p)}" r="8"/>`);
    svg.push(`<text class="mistake-text" x="${x(p.ply) + 9}" y="${y(p) + 14}">! ${ply.player} ${ply.cell}</text>`);
  }
  svg.push("</svg>");
  element.innerHTML = svg.join("");
}

function pliesList(element, review, current) {
  element.replaceChildren();
  for (const ply of review.plies) {
    const item = document.createElement("li");
    const verdict = ply.verdict.replaceAll("_", " ");
    const best = ply.verdict === "best" ? "" : `; best ${ply.best.join(" ")}`;
    item.textContent = `${ply.player} ${ply.cell}: ${LETTER[ply.value_before]}${ply.remoteness_before}` +
      ` → ${LETTER[ply.value]}${ply.remoteness}, ${verdict}${best}`;
    if (MISTAKES.includes(ply.verdict)) {
      item.classList.add("mistake");
      item.textContent = "! " + item.textContent;
    }
    if (current === ply.ply) item.classList.add("current");
    item.dataset.verdict = ply.verdict;
    element.append(item);
  }
}

// ---- Play ----

const play = { game: "3x3", moves: [], human: "X", opponent: "perfect", seed: 1, busy: false };

function say(element, text) {
  element.textContent = text;
}

function ending(status, human) {
  if (status === "draw") return "Draw: the board is full.";
  const winner = status === "x_wins" ? "X" : "O";
  return winner === human ? `You win (${winner} made a line).`
    : `${play.opponent} wins (${winner} made a line).`;
}

async function refresh() {
  const params = { game: play.game, moves: play.moves.join(" ") };
  const [analysis, review] = await Promise.all([api("analyze", params), api("review", params)]);
  const over = analysis.status !== "in_progress";
  const yourTurn = !over && analysis.to_move === play.human;
  const hints = $("hints").checked && !over
    ? new Map(analysis.moves.map((m) => [m.cell, { ...m, best: analysis.best.includes(m.cell) }]))
    : null;
  const mistakes = review.plies.filter((p) => MISTAKES.includes(p.verdict));
  drawBoard($("board"), play.game, analysis.board, {
    hints,
    last: play.moves[play.moves.length - 1],
    onPlay: yourTurn && !play.busy ? humanMove : null,
  });
  if (over) {
    say($("status"), ending(analysis.status, play.human));
  } else if (yourTurn) {
    say($("status"), `${analysis.to_move} to move: your turn.`);
  } else {
    say($("status"), `${analysis.to_move} to move: ${play.opponent} is thinking…`);
  }
  $("status").dataset.status = analysis.status;
  $("status").dataset.toMove = analysis.to_move;
  drawChart($("chart"), review);
  pliesList($("history"), review);
  $("chart").dataset.mistakes = mistakes.length;
  return analysis;
}

async function step() {
  try {
    const analysis = await refresh();
    if (analysis.status === "in_progress" && analysis.to_move !== play.human) {
      play.busy = true;
      const answer = await api("move", {
        game: play.game, moves: play.moves.join(" "), opponent: play.opponent, seed: play.seed,
      });
      play.moves.push(answer.cell);
      play.busy = false;
      await refresh();
    }
  } catch (error) {
    play.busy = false;
    say($("status"), `Error: ${error.message}`);
  }
}

function humanMove(cell) {
  if (play.busy) return;
  play.moves.push(cell);
  step();
}

function undo() {
  if (play.busy) return;
  // Back to the last position where it was your turn.
  const parity = play.human === "X" ? 0 : 1;
  do play.moves.pop(); while (play.moves.length > 0 && play.moves.length % 2 !== parity);
  if (play.moves.length % 2 !== parity) play.moves = [];
  step();
}

function newGame(event) {
  if (event) event.preventDefault();
  const chosen = $("game").value;
  play.game = chosen === "other" ? $("other-game").value.trim() : chosen;
  play.opponent = $("opponent").value;
  play.human = $("side").value;
  play.moves = [];
  play.seed = Math.floor(Math.random() * 2 ** 31);
  play.busy = false;
  step();
}

async function setUp() {
  const [games, bots] = await Promise.all([api("games", {}), api("bots", {})]);
  for (const game of games.games) $("game").add(new Option(game, game));
  // The games of 16 cells the command line embeds, which the page's WebAssembly solves on
  // first use (a second or so).
  for (const game of ["4x4", "4x4k3"].filter((g) => !games.games.includes(g))) {
    $("game").add(new Option(`${game} (solved on first use)`, game));
  }
  $("game").add(new Option(`other (up to ${games.max_cells} cells)`, "other"));
  for (const bot of bots.bots) $("opponent").add(new Option(bot.name, bot.name));
  for (const form of bots.parameterised) {
    const spec = form.form.replace(":P", ":0.3");
    $("opponent").add(new Option(spec, spec));
  }
  $("opponent").value = "perfect";
  $("game").addEventListener("change", () => {
    $("other-game-label").hidden = $("game").value !== "other";
  });
  $("setup").addEventListener("submit", newGame);
  $("undo").addEventListener("click", undo);
  $("hints").addEventListener("change", () => refresh());
  document.addEventListener("keydown", keyboard);
  newGame();
}

function keyboard(event) {
  const target = event.target;
  if (target.matches("input:not([type=checkbox]), textarea, select")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[1-9]$/.test(event.key)) {
    const cell = $("board").querySelector(`[data-cell="${event.key}"]:not([aria-disabled])`);
    if (cell) cell.click();
  } else if (event.key === "u") {
    undo();
  } else if (event.key === "n") {
    newGame();
  } else if (event.key === "h") {
    $("hints").checked = !$("hints").checked;
    refresh();
  }
}

// ---- Review ----

const reviewed = { review: null, game: "3x3", at: 0 };

async function startReview(event) {
  event.preventDefault();
  try {
    const game = $("review-game").value.trim() || "3x3";
    const review = await api("review", { game, text: $("review-text").value });
    Object.assign(reviewed, { review, game, at: review.plies.length });
    const count = review.mistakes;
    const forfeit = review.forfeit ? `, then ${review.forfeit} forfeited` : "";
    say($("review-status"), `${review.plies.length} plies, ${review.status.replaceAll("_", " ")}` +
      `${forfeit}; ${count} mistake${count === 1 ? "" : "s"}.`);
    showReview();
  } catch (error) {
    reviewed.review = null;
    say($("review-status"), `Error: ${error.message}`);
  }
}

async function showReview() {
  const review = reviewed.review;
  if (!review) return;
  const moves = review.moves.slice(0, reviewed.at);
  const analysis = await api("analyze", { game: reviewed.game, moves: moves.join(" ") });
  const ply = review.plies[reviewed.at - 1];
  drawBoard($("review-board"), reviewed.game, analysis.board, {
    last: ply && ply.cell,
    mistake: ply && MISTAKES.includes(ply.verdict) ? ply.cell : undefined,
  });
  const about = ply ? `: ${ply.player} played ${ply.cell}, ${ply.verdict.replaceAll("_", " ")}` +
    (ply.verdict === "best" ? "" : ` (best ${ply.best.join(" ")})`) : "";
  say($("review-step"), `ply ${reviewed.at} of ${review.plies.length}${about}`);
  drawChart($("review-chart"), review, reviewed.at);
  pliesList($("review-list"), review, reviewed.at);
}

function goTo(at) {
  if (!reviewed.review) return;
  reviewed.at = Math.max(0, Math.min(at, reviewed.review.plies.length));
  showReview();
}

// ---- The map ----

let zoom = 1;

function setZoom(factor) {
  zoom = Math.max(1, Math.min(16, zoom * factor));
  const image = $("map-image");
  image.style.width = `${600 * zoom}px`;
  image.style.height = `${600 * zoom}px`;
  say($("zoom-level"), `${Math.round(zoom * 100)}%`);
}

async function showMap() {
  const side = $("map-side").value;
  $("map-image").src = await mapUrl(side);
  $("map-image").alt = `The map of perfect play for ${side.toUpperCase()}`;
}

function setUpMap() {
  $("map-side").addEventListener("change", showMap);
  $("zoom-in").addEventListener("click", () => setZoom(2));
  $("zoom-out").addEventListener("click", () => setZoom(0.5));
  $("map-view").addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    setZoom(event.deltaY < 0 ? 1.25 : 0.8);
  }, { passive: false });
  $("map-view").addEventListener("keydown", (event) => {
    if (event.key === "+") setZoom(2);
    if (event.key === "-") setZoom(0.5);
  });
}

window.addEventListener("DOMContentLoaded", () => {
  $("review-form").addEventListener("submit", startReview);
  $("review-first").addEventListener("click", () => goTo(0));
  $("review-prev").addEventListener("click", () => goTo(reviewed.at - 1));
  $("review-next").addEventListener("click", () => goTo(reviewed.at + 1));
  $("review-last").addEventListener("click", () => goTo(Infinity));
  setUpMap();
  setUp()
    .then(showMap)
    .catch((error) => say($("status"), `Error: ${error.message}`));
});
