// The page of `ttt serve` and of its static copy: every answer comes from the JSON API
// (docs/web.md), asked through engine.js; this script only draws them. No framework, no build
// step.
"use strict";

const MISTAKES = ["win_to_draw", "win_to_loss", "draw_to_loss"];
const LETTER = { win: "W", draw: "D", loss: "L" };
const $ = (id) => document.getElementById(id);

const WORD = { win: "win", draw: "draw", loss: "loss" };

// A game's rows and columns, from its name (`MxN` or `MxNkK`, in either case).
function shape(game) {
  const m = /^(\d+)x(\d+)(?:k\d+)?$/i.exec(game.trim());
  return m ? { rows: +m[1], columns: +m[2] } : { rows: 3, columns: 3 };
}

// ---- The board ----

// A mark drawn in SVG: X two strokes, O a ring (pathLength lets both be drawn in as one).
function markSvg(mark, className) {
  const shapeOf = mark === "X"
    ? '<path pathLength="100" d="M26 26L74 74M74 26L26 74"/>'
    : '<circle pathLength="100" cx="50" cy="50" r="27"/>';
  return `<svg class="mark ${mark} ${className}" viewBox="0 0 100 100" aria-hidden="true">${shapeOf}</svg>`;
}

// Draws `board` (text, rows split by '/') into `element`. Options: `hints` (cell -> move
// value) colours the empty cells; `onPlay` makes them playable, `toMove` the mark shown on
// hover; `last` and `mistake` mark a cell; `wonLines` (the analysis's `won_lines`, each a
// line's cells) are struck through.
function drawBoard(element, game, board, options) {
  const { rows, columns } = shape(game);
  const marks = board.replaceAll("/", "");
  const before = element.dataset.marks || "";
  // The cell that had the keyboard's focus keeps it through the redrawing.
  const focused = element.contains(document.activeElement) ? document.activeElement.dataset.cell : null;
  element.dataset.marks = marks;
  element.style.gridTemplateColumns = `repeat(${columns}, 1fr)`;
  element.style.setProperty("--columns", columns);
  element.style.setProperty("--side", Math.max(rows, columns));
  element.replaceChildren();
  const runs = (options.wonLines || []).map((line) => line.map((cell) => cell - 1));
  const inRun = new Set(runs.flat());
  const cells = [];
  for (let i = 0; i < rows * columns; i++) {
    const cell = i + 1;
    const mark = marks[i] === "X" || marks[i] === "O" ? marks[i] : "";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "cell";
    button.dataset.cell = cell;
    button.setAttribute("role", "gridcell");
    if (mark) {
      // A mark that was not there the last time is drawn in.
      button.innerHTML = markSvg(mark, before[i] === mark || before.length !== marks.length ? "" : "new");
      button.dataset.mark = mark;
      button.setAttribute("aria-label", `cell ${cell}: ${mark}${inRun.has(i) ? ", in the winning line" : ""}`);
      if (inRun.has(i)) button.classList.add("win-line");
    } else {
      button.innerHTML = `<span class="number">${cell}</span>`;
      const hint = options.hints && options.hints.get(cell);
      let label = `cell ${cell}: empty`;
      if (hint) {
        button.classList.add(hint.value);
        button.dataset.value = hint.value;
        button.dataset.remoteness = hint.remoteness;
        const plies = hint.remoteness === 1 ? "ply" : "plies";
        button.title = `${hint.value} in ${hint.remoteness} ${plies} under perfect play`;
        button.insertAdjacentHTML("beforeend", `<span class="hint"><span class="plies">` +
          `${hint.remoteness}</span><span class="word">${WORD[hint.value]}</span></span>`);
        if (hint.best) {
          button.classList.add("best");
          button.insertAdjacentHTML("beforeend", '<span class="star" title="best">★</span>');
        }
        label += `, ${hint.value} in ${hint.remoteness} ${plies}${hint.best ? ", best" : ""}`;
      } else if (options.onPlay && options.toMove) {
        button.insertAdjacentHTML("beforeend", markSvg(options.toMove, "ghost"));
      }
      button.setAttribute("aria-label", label);
    }
    if (options.last === cell) button.classList.add("last");
    if (options.mistake === cell) button.classList.add("mistake");
    if (options.onPlay && !mark) {
      button.classList.add("playable");
      button.addEventListener("click", () => options.onPlay(cell));
    } else {
      button.setAttribute("aria-disabled", "true");
    }
    button.addEventListener("keydown", (event) => moveFocus(element, columns, cell, event));
    element.append(button);
    cells.push(button);
  }
  if (runs.length > 0) strike(element, runs.map((run) => [cells[run[0]], cells[run[run.length - 1]]]));
  if (focused) cells[focused - 1]?.focus();
}

// A line drawn over each winning run, through the centres of its cells and a little past its
// ends, in hundredths of the board so that it follows the board when the page is resized.
function strike(element, ends) {
  const width = element.clientWidth, height = element.clientHeight;
  if (!width || !height) return;
  const centre = (cell) => [cell.offsetLeft + cell.offsetWidth / 2, cell.offsetTop + cell.offsetHeight / 2];
  const lines = ends.map(([first, last]) => {
    const [[x1, y1], [x2, y2]] = [centre(first), centre(last)];
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const past = (first.offsetWidth * 0.3) / length;
    const [dx, dy] = [(x2 - x1) * past, (y2 - y1) * past];
    const across = (x) => `${(x / width) * 100}%`, down = (y) => `${(y / height) * 100}%`;
    return `<line pathLength="100" x1="${across(x1 - dx)}" y1="${down(y1 - dy)}" ` +
      `x2="${across(x2 + dx)}" y2="${down(y2 + dy)}"/>`;
  });
  element.insertAdjacentHTML("beforeend",
    `<svg class="strike" aria-hidden="true">${lines.join("")}</svg>`);
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
  const W = 440, H = 200, left = 48, right = 14, top = 16, mid = H / 2;
  const x = (ply) => left + ((W - left - right) * ply) / plies;
  const y = (p) => p.value === "draw" ? mid
    : mid + (p.value === "win" ? -1 : 1) * (mid - top) * (maxR - p.remoteness) / maxR;
  const svg = [`<svg viewBox="0 0 ${W} ${H + 18}" role="img" aria-label="Value history for X">`,
    `<rect class="band-x" x="${left}" y="${top - 8}" width="${W - left - right}" height="${mid - top + 8}"/>`,
    `<rect class="band-o" x="${left}" y="${mid}" width="${W - left - right}" height="${mid - top + 8}"/>`,
    `<line class="axis" x1="${left}" x2="${W - right}" y1="${mid}" y2="${mid}"/>`,
    `<line class="axis" x1="${left}" x2="${left}" y1="${top - 8}" y2="${H - top + 8}"/>`,
    `<text class="label" x="2" y="${top + 4}">X wins</text>`,
    `<text class="label" x="2" y="${mid + 4}">draw</text>`,
    `<text class="label" x="2" y="${H - top + 4}">O wins</text>`,
    `<text x="${left}" y="${H + 14}">ply 0</text>`,
    `<text x="${W - right}" y="${H + 14}" text-anchor="end">ply ${points.length - 1}</text>`];
  svg.push(`<polyline class="path" points="${points.map((p) => `${x(p.ply)},${y(p)}`).join(" ")}"/>`);
  if (current !== undefined) {
    svg.push(`<line class="current" x1="${x(current)}" x2="${x(current)}" y1="${top - 8}" y2="${H - top + 8}"/>`);
  }
  // A label every `every` points (and at the last), so that a long game's do not overlap; each
  // point says its value in its title.
  const every = Math.ceil(points.length / 12);
  for (const p of points) {
    const title = `ply ${p.ply}: ${p.value === "draw" ? "draw" : (p.value === "win" ? "X" : "O") + " wins"} in ${p.remoteness}`;
    const below = p.value === "loss" ? 18 : -9;
    svg.push(`<circle class="dot ${p.value}" cx="${x(p.ply)}" cy="${y(p)}" r="5"><title>${title}</title></circle>`);
    if (p.ply % every === 0 || p.ply === points.length - 1) {
      svg.push(`<text x="${x(p.ply)}" y="${y(p) + below}" text-anchor="middle">${LETTER[p.value]}${p.remoteness}</text>`);
    }
  }
  for (const ply of review.plies.filter((ply) => MISTAKES.includes(ply.verdict))) {
    const p = points[ply.ply - 1];
    svg.push(`<circle class="mistake-ring" data-ply="${ply.ply}" cx="${x(p.ply)}" cy="${y(p)}" r="9"/>`);
    svg.push(`<text class="mistake-text" x="${x(p.ply) + 10}" y="${y(p) + 16}">! ${ply.player} ${ply.cell}</text>`);
  }
  svg.push("</svg>");
  element.innerHTML = svg.join("");
}

// The plies, each with the values before and after it, and its verdict.
function pliesList(element, review, current) {
  element.replaceChildren();
  for (const ply of review.plies) {
    const item = document.createElement("li");
    const mistake = MISTAKES.includes(ply.verdict);
    const verdict = ply.verdict.replaceAll("_", " ");
    const best = ply.verdict === "best" ? "" : `; best ${ply.best.join(" ")}`;
    item.innerHTML = `<span class="move ${ply.player}">${ply.player} ${ply.cell}</span>` +
      `<span class="values">${LETTER[ply.value_before]}${ply.remoteness_before} → ` +
      `${LETTER[ply.value]}${ply.remoteness}</span>` +
      `<span class="verdict">${mistake ? "! " : ""}${verdict}${best}</span>`;
    if (mistake) item.classList.add("mistake");
    if (current === ply.ply) item.classList.add("current");
    item.dataset.verdict = ply.verdict;
    element.append(item);
  }
}

// ---- Play ----

// `epoch` counts the steps taken: the answers of an earlier step (of an earlier game, say, while
// the browser solves the next) are dropped when they come.
const play = {
  game: "3x3", moves: [], human: "X", opponent: "perfect", seed: 1, busy: false, epoch: 0,
};

function say(element, text) {
  element.textContent = text;
}

// The status line: the mark of the side to move (or of the winner) and what is happening.
function tell(text, mark, outcome, thinking) {
  const status = $("status");
  status.innerHTML = (mark ? markSvg(mark, "who") : "") + '<span class="text"></span>';
  status.querySelector(".text").textContent = text;
  status.classList.toggle("thinking", thinking);
  if (outcome) status.dataset.outcome = outcome;
  else delete status.dataset.outcome;
}

function ending(status, human) {
  if (status === "draw") return "Draw: the board is full.";
  const winner = status === "x_wins" ? "X" : "O";
  return winner === human ? `You win (${winner} made a line).`
    : `${play.opponent} wins (${winner} made a line).`;
}

// Draws the game as it stands; null, drawing nothing, when a later step has begun meanwhile.
async function refresh() {
  const epoch = play.epoch;
  const params = { game: play.game, moves: play.moves.join(" ") };
  const [analysis, review] = await Promise.all([api("analyze", params), api("review", params)]);
  if (epoch !== play.epoch) return null;
  const over = analysis.status !== "in_progress";
  const yourTurn = !over && analysis.to_move === play.human;
  const hints = $("hints").checked && !over
    ? new Map(analysis.moves.map((m) => [m.cell, { ...m, best: analysis.best.includes(m.cell) }]))
    : null;
  const mistakes = review.plies.filter((p) => MISTAKES.includes(p.verdict));
  drawBoard($("board"), play.game, analysis.board, {
    hints,
    last: play.moves[play.moves.length - 1],
    onPlay: yourTurn ? humanMove : null,
    toMove: analysis.to_move,
    wonLines: analysis.won_lines,
  });
  if (over) {
    const winner = { x_wins: "X", o_wins: "O" }[analysis.status];
    const outcome = !winner ? "draw" : winner === play.human ? "you" : "them";
    tell(ending(analysis.status, play.human), winner, outcome, false);
  } else if (yourTurn) {
    tell(`${analysis.to_move} to move: your turn.`, analysis.to_move, null, false);
  } else {
    tell(`${analysis.to_move} to move: ${play.opponent} is thinking`, analysis.to_move, null, true);
  }
  $("status").dataset.status = analysis.status;
  $("status").dataset.toMove = analysis.to_move;
  drawChart($("chart"), review);
  pliesList($("history"), review);
  $("chart").dataset.mistakes = mistakes.length;
  return analysis;
}

// Draws the game, then has the opponent move if it is its turn. Moves are not taken meanwhile
// (a click while the answers are coming would be played out of turn).
async function step() {
  const epoch = ++play.epoch;
  play.busy = true;
  try {
    const analysis = await refresh();
    if (analysis && analysis.status === "in_progress" && analysis.to_move !== play.human) {
      const answer = await api("move", {
        game: play.game, moves: play.moves.join(" "), opponent: play.opponent, seed: play.seed,
      });
      if (epoch !== play.epoch) return;
      play.moves.push(answer.cell);
      await refresh();
    }
  } catch (error) {
    if (epoch === play.epoch) tell(`Error: ${error.message}`, null, null, false);
  } finally {
    if (epoch === play.epoch) play.busy = false;
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
  // Until the first answer (a game the page's WebAssembly solves takes a second or two), the
  // new game's empty board, not yet playable, rather than the last game's.
  const { rows, columns } = shape(play.game);
  if (rows * columns <= 16) drawBoard($("board"), play.game, ".".repeat(rows * columns), {});
  else $("board").replaceChildren();
  say($("status"), `Starting ${play.game}…`);
  $("status").dataset.status = "starting";
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

// The digits typed so far of a cell's number, on a board of 10 cells or more, and the timer
// that plays them when no digit follows.
const typed = { digits: "", timer: null };
const TYPING_MS = 700;

// Plays the cell numbered `digits`, if it is free.
function playTyped(digits) {
  clearTimeout(typed.timer);
  typed.digits = "";
  const cell = $("board").querySelector(`[data-cell="${digits}"]:not([aria-disabled])`);
  if (cell) cell.click();
}

// A cell's number: one digit at once; on a larger board, a digit that can start a longer
// number waits for the next (or TYPING_MS), so that "1 2" plays cell 12.
function typeDigit(digit) {
  const cells = $("board").querySelectorAll(".cell").length;
  const digits = typed.digits + digit;
  if (Number(digits) > cells || digits === "0") return playTyped(typed.digits);
  if (Number(digits) * 10 > cells) return playTyped(digits);
  clearTimeout(typed.timer);
  typed.digits = digits;
  typed.timer = setTimeout(() => playTyped(typed.digits), TYPING_MS);
}

function keyboard(event) {
  const target = event.target;
  if (target.matches("input:not([type=checkbox]), textarea, select")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[0-9]$/.test(event.key)) {
    typeDigit(event.key);
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
  // The last review's board, chart and list go: they are not this game's.
  reviewed.review = null;
  for (const id of ["review-board", "review-chart", "review-list"]) $(id).replaceChildren();
  say($("review-step"), "ply 0 of 0");
  if ($("review-text").value.trim() === "") {
    say($("review-status"), "Paste a game first: a move list, or the result: line of ttt play.");
    return;
  }
  say($("review-status"), "Reviewing…");
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
    wonLines: analysis.won_lines,
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
    .catch((error) => tell(`Error: ${error.message}`, null, null, false));
});
