// The browser table of `rook serve`: one person at seat 0 against bots.
// It creates a game (a fresh secret deal unless a seed is typed in), joins
// seat 0, then polls the seat's view and shows the legal actions as buttons;
// a button sends the action with the move number.  The game and its seat
// token are kept in the browser's storage, so a reload goes on with the game;
// if the seat's token was lost, the game's owner token frees the seat and the
// page takes it again.  When a hand of a trick game is over, the page asks
// for its double-dummy review and shows what each seat's costly cards cost.
// A server that is down or busy only delays the page: it says so and keeps
// asking; the saved game is forgotten only once the server says it is gone.
"use strict";

const GAMES = ["tournament", "partnership-57", "crowsnest", "crowsnest-100", "kentucky-discard-original",
               "red-one", "buckeye", "kentucky-rook", "dixie", "house-180", "toonerville"];
const $ = (id) => document.getElementById(id);
const COLOURS = {B: "black", G: "green", R: "red", Y: "yellow"};
const SAVED = "rook_core.seat";
let game = null, token = null, owner = null, view = null, timer = null, sending = false, shown = null;
let polling = false;    // a poll of the view is under way
let actionError = "", pollError = "";   // why the last action was refused; why the last poll failed
let legalFocused = false;               // the keyboard's focus was on an action button
let reviewed = 0;   // the last hand whose review was asked for
let epoch = 0;      // bumped by each new game: an answer to an older game's request is dropped

for (const g of GAMES) {
  const o = document.createElement("option");
  o.value = o.textContent = g;
  $("game").appendChild(o);
}

// A request to the service; a refusal throws an Error with the server's message
// and its HTTP status (0: the server could not be reached).
async function call(method, path, body) {
  const headers = {"Content-Type": "application/json"};
  if (token) headers["Authorization"] = "Bearer " + token;
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  let r;
  try {
    r = await fetch(path, {method, headers, body: text});
  } catch (e) {
    throw failure(0, "The server cannot be reached; the page keeps trying.");
  }
  let data = null;
  try {
    data = await r.json();
  } catch (e) {
    data = null;                          // not JSON: a proxy's page, a cut answer
  }
  if (!r.ok) {
    const said = data && typeof data.error === "string" ? data.error : `the server answered ${r.status}`;
    throw failure(r.status, r.status === 429 ? `The server is busy: ${said}` : said);
  }
  if (data === null) throw failure(r.status, `the server's answer to ${method} ${path} was not JSON`);
  return data;
}

function failure(status, message) {
  const e = new Error(message);
  e.status = status;
  return e;
}

function showErrors() {
  $("error").textContent = actionError || pollError;
}

function cardEl(name) {
  const el = document.createElement("span");
  el.className = "card " + (name === "Rook" ? "Rook" : name[0]);
  el.textContent = name;
  return el;
}

function cards(names) {
  const box = document.createElement("div");
  box.className = "cards";
  for (const n of names) box.appendChild(cardEl(n));
  return box;
}

function line(label, ...parts) {
  const row = document.createElement("div");
  row.className = "line";
  row.dataset.what = label;
  const b = document.createElement("b");
  b.textContent = label + ": ";
  row.append(b, ...parts);
  return row;
}

// A trick's cards, each with the seat that played it ([[seat, card], ...]).
function played(what, text, trick) {
  const row = line(what === "previous" ? "previous trick" : what, text);
  row.dataset.what = what;
  for (const [seat, card] of trick) {
    const one = document.createElement("span");
    one.className = "played";
    one.dataset.seat = seat;
    one.append(`seat ${seat} `, cardEl(card), " ");
    row.append(one);
  }
  return row;
}

// Who sits where: the page's person at its seat, bots elsewhere (the game's public seats).
let seatKinds = null;   // GET /games/{id}'s seats, read once a game
function seatName(s) {
  if (s === view.seat) return "you";
  const seat = seatKinds && seatKinds[s];
  if (!seat) return "?";
  return seat.kind === "bot" ? `${seat.bot} bot` : seat.taken ? "a person" : "an open seat";
}

let readingSeats = false;
async function readSeats() {
  if (readingSeats) return;
  readingSeats = true;
  const asked = game;
  try {
    const pub = await call("GET", `/games/${game}`);
    if (game === asked) {
      seatKinds = pub.seats;
      shown = null;           // draw the names
      if (view) render();
    }
  } catch (e) {
    seatKinds = null;         // asked again with the next view
  } finally {
    readingSeats = false;
  }
}

function gameOver(result, o) {
  if (!result) return "Game over.";
  if (o.game === "toonerville") {
    const t = result.totals.map((x, p) => `player ${p} ${x}`).join(", ");
    return `Game over: player(s) ${result.winners.join(", ")} won with the fewest points (${t}).`;
  }
  const [a, b] = result.totals;
  if (result.winner_team === null || result.winner_team === undefined) {
    return `Game over after ${result.hands} hands with no winner (the hand limit): team 0 ${a}, team 1 ${b}.`;
  }
  const w = result.winner_team;
  const you = view.seat % 2 === w ? "your team wins" : "your team loses";
  return `Game over: team ${w} wins ${w === 0 ? a : b} to ${w === 0 ? b : a} after ${result.hands} hands; ${you}.`;
}

function render() {
  // Polling returns the same view most of the time: redraw only what changed,
  // so a button is never replaced under the pointer.
  const key = JSON.stringify({...view, clock_left: null});
  if (key === shown) return;
  shown = key;
  const o = view.observation;
  $("board").hidden = false;
  $("board").dataset.move = view.move;
  $("hand").replaceChildren(cards(o.hand || []));
  const table = $("table");
  table.replaceChildren();
  const info = [];
  if (o.game === "toonerville") {
    info.push(`Round ${o.round}: ${o.contract.sets} set(s), ${o.contract.runs} run(s)`,
              `phase ${o.phase}`, `discard ${o.discard_top || "-"}`, `stock ${o.stock_size}`,
              `hand sizes ${o.hand_sizes.join(" / ")}`, `totals ${o.totals.join(" / ")}`);
    o.table.forEach((m, i) => {
      const row = document.createElement("div");
      row.className = "meld";
      row.append(`${i}: ${m.kind} of seat ${m.owner} `, cards(m.cards));
      table.appendChild(row);
    });
  } else {
    info.push(`${o.variant}, hand ${o.hand_number}, ${o.phase} phase`,
              `you are seat ${o.seat} (team ${o.seat % 2}, with seat ${(o.seat + 2) % 4}); dealer: seat ${o.dealer}`);
    table.append(line("seats", [0, 1, 2, 3].map((s) => `seat ${s}: ${seatName(s)}`).join(" · ")));
    table.append(line("bidding", o.bids.length ? o.bids.map(([s, b]) => `seat ${s} ${b === null ? "pass" : b}`)
      .join(", ") : "no call yet"));
    if (o.declarer !== null && o.declarer !== undefined) {
      // while the bidding goes on, the seat with the high bid is not yet the declarer
      table.append(o.phase === "bid"
        ? line("high bid", `seat ${o.declarer} (team ${o.declarer % 2}) with ${o.high_bid}`)
        : line("contract", `seat ${o.declarer} (team ${o.declarer % 2}) bid ${o.high_bid}` +
               (o.trump ? `, trump ${COLOURS[o.trump] || o.trump}` : "")));
    }
    if (o.nest && o.nest.length) {
      const open = o.declarer !== o.seat;      // a nest another seat took, shown face up (H-5)
      table.append(line("nest", open ? `face up, taken by seat ${o.declarer}: ` : "as dealt: ", cards(o.nest)));
    }
    if (o.discarded && o.discarded.length) table.append(line("your discards", cards(o.discarded)));
    if (o.passed && o.passed.length) table.append(line("you passed", `to seat ${(o.seat + 3) % 4}: `, cards(o.passed)));
    table.appendChild(played("trick", "", o.trick));
    if (o.tricks.length) {
      const last = o.tricks[o.tricks.length - 1];
      table.appendChild(played("previous", `seat ${last.winner} took it: `, last.cards));
    }
    table.append(line("this hand", `team 0 ${o.points[0]} points (${o.tricks_won[0]} tricks), ` +
      `team 1 ${o.points[1]} points (${o.tricks_won[1]} tricks)`));
    if (o.score) table.append(line("hand score", `team 0 ${o.score[0]}, team 1 ${o.score[1]}`));
    table.append(line("score", `team 0 ${o.totals[0]}, team 1 ${o.totals[1]}; playing to ${o.target}`));
  }
  $("info").textContent = info.join(" · ");
  const legal = $("legal");
  // a keyboard player whose button went away with the old view goes on from the first new one
  const active = document.activeElement;
  const refocus = legalFocused && (legal.contains(active) || active === document.body);
  const was = refocus && legal.contains(active) ? active.dataset.action : null;
  legal.replaceChildren();
  const drawnAt = view.move;          // a button sends the move it was drawn for
  for (const a of view.legal) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = a;
    b.dataset.action = a;
    b.addEventListener("click", (ev) => send(a, drawnAt, ev));
    legal.appendChild(b);
  }
  if (refocus && legal.firstChild) {
    ([...legal.children].find((b) => b.dataset.action === was) || legal.firstChild).focus();
  }
  if (view.over) {
    $("status").textContent = gameOver(view.result, o);
  } else {
    $("status").textContent = view.to_move === view.seat ? prompt(o) : `Waiting for seat ${view.to_move}.`;
  }
}

// What the seat to move is asked to do, by phase.
function prompt(o) {
  if (o.game === "toonerville") {
    return {buy: "Your move: buy the discard, or pass.", draw: "Your move: draw from the stock, or take the discard."}[o.phase]
      || "Your move: lay down, meld, lay off or swap, then discard.";
  }
  if (o.phase === "bid") return "Your call: bid or pass.";
  if (o.phase === "trump") return "Your move: name trump.";
  if (o.phase === "pass") return `Your move: pass a card to seat ${(o.seat + 3) % 4}.`;
  if (o.phase === "nest") {
    const left = (o.nest || []).length - (o.discarded || []).length;
    if ((o.nest || []).length === 1) return "Your move: lay one card face down in place of the widow (it may be the widow itself).";
    return `Your move: put ${left} more card${left === 1 ? "" : "s"} face down as the nest.`;
  }
  return o.trick.length ? "Your move: play a card." : "Your lead.";
}

function showReview(n, r) {
  $("review").hidden = false;
  $("review-title").textContent = `Hand ${n}, reviewed with every hand open`;
  const seats = $("review-seats"), list = $("review-cards");
  seats.replaceChildren();
  list.replaceChildren();
  if (r.error) {
    $("review-summary").textContent = r.error;
    return;
  }
  const [lo, hi] = Array.isArray(r.worth) ? r.worth : [r.worth, r.worth];
  const span = (a, b) => (a === b ? `${a}` : `${a} to ${b}`);
  $("review-summary").textContent =
    `Seat ${r.declarer} declared ${r.bid} in ${COLOURS[r.trump] || r.trump}; the teams took ${r.points[0]} and ` +
    `${r.points[1]}. Best play from the first lead gives team 0 ${span(lo, hi)} and team 1 ` +
    `${span(r.total - hi, r.total - lo)} of the ${r.total} points.`;
  const head = document.createElement("tr");
  for (const h of ["Seat", "Team", "Costly cards", "Points given away"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  seats.appendChild(head);
  for (const [seat, m] of Object.entries(r.mistakes)) {
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    const more = m.exact === false ? " or more" : "";    // a search cut short: lower bounds
    for (const x of [Number(seat) === view.seat ? `${seat} (you)` : seat, Number(seat) % 2, `${m.cards}${more}`,
                     `${m.cost}${more}`]) {
      const td = document.createElement("td");
      td.textContent = x;
      tr.appendChild(td);
    }
    seats.appendChild(tr);
  }
  for (const c of r.cards) {
    if (c.cost <= 0) continue;
    const li = document.createElement("li");
    li.append(`Trick ${c.trick}: seat ${c.seat} played `, cardEl(c.card),
              `, ${c.cost}${c.exact === false ? " or more" : ""} points given away; best: `, cards(c.best || []));
    list.appendChild(li);
  }
  if (!list.children.length) {
    const li = document.createElement("li");
    li.textContent = "Every card was a best card.";
    list.appendChild(li);
  }
}

// Ask once for the review of the latest finished hand of a trick game.
async function reviewFinished() {
  const o = view.observation;
  if (o.game === "toonerville") return;
  const n = view.over ? o.hand_number : o.hand_number - 1;
  if (n <= reviewed) return;
  reviewed = n;
  const asked = game;
  try {
    const r = await call("GET", `/games/${game}/hands/${n}/review`);
    if (game === asked) showReview(n, r);
  } catch (e) {
    if (game !== asked) return;
    if (e.status === 0 || e.status === 429 || e.status >= 500) reviewed = n - 1;   // asked again at the next poll
    else showReview(n, {error: `Hand ${n}: ${e.message}`});
  }
}

// Show a view of the page's game, unless it is older than the one shown (a poll
// sent before an action may be answered after it).
function show(v) {
  if (view && view.game_id === v.game_id && v.move < view.move) return;
  view = v;
  if (!seatKinds) readSeats();
  render();
  reviewFinished();
}

async function refresh() {
  if (!game || !token || polling) return;   // a new game is being set up, or a poll is under way
  const mine = epoch;
  polling = true;
  try {
    const v = await call("GET", `/games/${game}/view`);
    if (mine !== epoch) return;
    pollError = "";
    show(v);
  } catch (e) {
    if (mine !== epoch) return;
    if (e.status === 403 && owner) {
      await takeBack(mine);
    } else if (e.status === 404 || e.status === 403) {
      forget(`${e.status === 404 ? "This game is no longer on the server" : "The seat's token is refused"} ` +
             `(${e.message}). Choose a game and press Play.`);
    } else {
      pollError = e.message;                // down, restarting or busy: asked again at the next poll
    }
  } finally {
    if (mine === epoch) polling = false;
    showErrors();
  }
}

// The seat's token was refused: the owner frees the seat and the page takes it again.
async function takeBack(mine) {
  const lost = token;
  try {
    token = owner;
    await call("POST", `/games/${game}/seats/0/reset`);
    if (mine !== epoch) return;
    token = lost;
    const joined = (await call("POST", `/games/${game}/seats/0/join`)).token;
    if (mine !== epoch) return;
    token = joined;
    localStorage.setItem(SAVED, JSON.stringify({game, token, owner}));
    pollError = "";
  } catch (e) {
    if (mine !== epoch) return;
    token = lost;
    if (e.status === 403 || e.status === 404) {
      forget(`The seat of this game cannot be taken back (${e.message}). Choose a game and press Play.`);
    } else {
      pollError = e.message;
    }
  }
}

function forget(why) {
  epoch++;                 // answers about the forgotten game are dropped
  clearInterval(timer);
  localStorage.removeItem(SAVED);
  game = token = owner = view = seatKinds = null;
  shown = null;
  $("review").hidden = true;
  pollError = actionError = "";
  $("board").hidden = true;
  $("legal").replaceChildren();
  $("status").textContent = why;
}

function poll() {
  clearInterval(timer);
  timer = setInterval(refresh, 1500);
}

async function send(action, move, ev) {
  // The second click of a double click lands on whatever button the answer put there.
  if (ev && ev.detail > 1) return;
  if (sending || !game || !token) return;   // a new game is being set up: its buttons come with its view
  const mine = epoch;
  sending = true;
  $("legal").setAttribute("aria-busy", "true");
  try {
    const v = await call("POST", `/games/${game}/actions`, {action, move});
    if (mine !== epoch) return;
    actionError = "";
    show(v);
  } catch (e) {
    if (mine !== epoch) return;
    actionError = e.status ? `${action} was refused: ${e.message}` : `${action}: ${e.message}`;
    if (e.status === 409 || e.status === 422) {
      shown = null;            // the game may have moved on: show it as it is now
      polling = false;
      refresh();
    }
  } finally {
    if (mine === epoch) {
      sending = false;
      $("legal").removeAttribute("aria-busy");
      showErrors();
    }
  }
}

// The seed as JSON: its digits as typed (a number past 2**53 would lose some in JavaScript).
function seedJSON(body, typed) {
  if (!/^\d+$/.test(typed)) throw failure(0, `a seed is a whole number from 0 to 2**64-1, not ${typed}`);
  return JSON.stringify({...body, seed: "SEED"}).replace('"seed":"SEED"', `"seed":${typed.replace(/^0+(?=\d)/, "")}`);
}

// A move typed as its text: a Toonerville lay-down the buttons leave out (they
// list at most a few hundred of them), or any move by keyboard.
$("typed").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("typed-action").value.trim();
  if (!text || !view) return;
  await send(text, view.move);
  if (!actionError) $("typed-action").value = "";
});

$("new-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  clearInterval(timer);
  const mine = ++epoch;
  game = token = view = null;
  shown = null;
  sending = polling = false;
  actionError = pollError = "";
  $("legal").replaceChildren();   // the last game's actions are not this one's
  showErrors();
  reviewed = 0;
  $("review").hidden = true;
  const name = $("game").value;
  const players = name === "toonerville" ? Number($("players").value) : 4;
  const seats = ["human"].concat(Array(players - 1).fill($("bots").value));
  try {
    const body = {game: name, seats};
    if (name === "toonerville") body.players = players;
    const typed = $("seed").value.trim();
    const g = await call("POST", "/games", typed === "" ? body : seedJSON(body, typed));
    if (mine !== epoch) return;
    const joined = (await call("POST", `/games/${g.game_id}/seats/0/join`)).token;
    if (mine !== epoch) return;
    game = g.game_id;
    owner = g.owner_token;
    token = joined;
    localStorage.setItem(SAVED, JSON.stringify({game, token, owner}));
    seatKinds = null;
    await refresh();
    if (mine === epoch) poll();
  } catch (e) {
    if (mine === epoch) $("status").textContent = "Error: " + e.message;
  }
});

// The keyboard's focus: on an action button, or elsewhere (see render).
document.addEventListener("focusin", (ev) => { legalFocused = $("legal").contains(ev.target); });

// Go on with the game of this browser's last visit, if it is still there
// (unless a new game was started meanwhile: then that one's state is kept).
// A server that is down or busy is asked again; the seat is taken back with
// the owner token if its own token is refused.
(async () => {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(SAVED) || "null");
  } catch (e) {
    saved = null;
  }
  if (!saved || typeof saved.game !== "string" || typeof saved.token !== "string") return;
  const mine = epoch;
  game = saved.game;
  token = saved.token;
  owner = typeof saved.owner === "string" ? saved.owner : null;
  $("status").textContent = "Going on with the game of your last visit…";
  await refresh();
  if (mine === epoch && game) poll();   // unless it is gone, or a new game was started meanwhile
})();
