'use strict';
/**
 * Plumbing for Zebra bots written in JavaScript (Node.js built-ins only, no npm packages).
 *
 * Zebra writes one JSON object per line to the bot's stdin and reads one per line from
 * its stdout (see protocol/PROTOCOL.md). This module reads and writes those lines:
 *
 *     const zebra = require('./zebra_bot');
 *
 *     zebra.run((request, ctx) => {        // the whole `request` message, as an object
 *       if (request.decision === 'formation') {   // legal is null: build one
 *         return zebra.formation(request.state, request.side, ctx.rng);
 *       }
 *       return ctx.rng.choice(request.legal);
 *     }, { name: 'mybot', author: 'me', version: '1.0' });
 *
 * `run` answers `hello` with `ready`, `ping` with `pong`, each `request` with the action
 * `decide` returns (a string, or a Promise of one), and ends on `quit` or at the end of
 * stdin. If `decide` throws, rejects, returns no string, returns an action that is not in
 * the request's `legal` list, or a formation that the referee would reject outright
 * (`formationProblem`), `run` logs why and answers with `fallback(request)` instead: a
 * legal formation when one is asked for, else the first legal action. Logs go to stderr:
 * stdout carries only protocol.
 *
 * From any directory: this file needs nothing but Node. Copy it next to your bot, or
 * require it by absolute path, or run `NODE_PATH=/path/to/zebra/bots/js node my_bot.js`
 * and `require('zebra_bot')`.
 */

const readline = require('readline');

// The highest protocol version this module speaks; it speaks 1 to a referee that offers no 2.
// In version 2 it asks for everything version 1 sends (the whole state and the legal list at
// every request, events, results): it keeps no game of its own.
const PROTOCOL_VERSION = 2;

const FILES = 'abcdefgh';
// Pieces on each sideline (rules 2.2), by notation letter.
const SIDELINE = Object.freeze({ P: 8, N: 2, B: 2, R: 2, Q: 1, K: 1 });

/** Writes a line to stderr (never to stdout, which carries only protocol). */
function log(...parts) {
  process.stderr.write(parts.map((p) => (typeof p === 'string' ? p : String(p))).join(' ') + '\n');
}

// --- random numbers ------------------------------------------------------------------

/** A 32-bit hash of a string (FNV-1a), to seed the generator from any text. */
function hashString(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A small seeded generator (mulberry32). `seed` is a number or a string; the same seed
 * gives the same sequence on every machine. Without a seed it starts from Math.random.
 *
 *   rng.next()       a float in [0, 1)
 *   rng.int(n)       an integer in [0, n)
 *   rng.choice(arr)  an element of a non-empty array (or string)
 *   rng.shuffle(arr) shuffles arr in place and returns it
 */
function createRng(seed) {
  let state;
  if (seed === undefined || seed === null) {
    state = (Math.random() * 0x100000000) >>> 0;
  } else {
    state = hashString(String(seed));
  }
  const rng = {
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    int(n) {
      return Math.floor(rng.next() * n);
    },
    choice(items) {
      if (!items || items.length === 0) throw new RangeError('choice from an empty list');
      return items[rng.int(items.length)];
    },
    shuffle(items) {
      for (let i = items.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        const t = items[i];
        items[i] = items[j];
        items[j] = t;
      }
      return items;
    },
  };
  return rng;
}

// --- lines ---------------------------------------------------------------------------

/**
 * Writes one message as one line. Node has no buffer to flush here: on Linux a write to a
 * pipe is synchronous, elsewhere it leaves as soon as control returns to the event loop.
 */
function send(msg) {
  process.stdout.write(JSON.stringify(msg) + '\n');
}

/** Answers request `id` with `action` in notation (`e4e5`, `snap`, `[Pd5,...]`). */
function sendAction(id, action) {
  send({ type: 'action', id: id === undefined ? null : id, action });
}

/** Sends a `log` message. It counts toward the output limit: prefer `log()` (stderr). */
function sendLog(message) {
  send({ type: 'log', message: String(message) });
}

/** The `ready` message (the answer to `hello`). */
function ready({ name = 'javascript', author = '', version = '', options = [], wants = [] } = {}, protocol = PROTOCOL_VERSION) {
  const msg = {
    type: 'ready',
    version: protocol,
    name,
    author,
    bot_version: version,
    capabilities: [],
    options: options || [],
  };
  if (protocol >= 2) {
    // Everything version 1 sends: this module keeps no game of its own, and `onMessage`
    // sees results and events as before.
    const all = ['state', 'legal', 'events', 'results'];
    msg.wants = [...all, ...(wants || []).filter((w) => !all.includes(w))];
  }
  return msg;
}

/**
 * Parses one input line: the message as an object, or null for a line to skip (blank,
 * not JSON, not a message; the last two are logged).
 */
function parseLine(line) {
  const text = line.replace(/^\uFEFF/, '').trim();
  if (!text) return null;
  let msg;
  try {
    msg = JSON.parse(text);
  } catch (e) {
    log(`zebra_bot: skipped a line that is not JSON (${e.message})`);
    return null;
  }
  if (msg && typeof msg === 'object' && !Array.isArray(msg) && typeof msg.type === 'string') {
    return msg;
  }
  log('zebra_bot: skipped a line that is not a message');
  return null;
}

// --- formations ----------------------------------------------------------------------

/**
 * A legal formation (rules 3.2) for `side` in the position `state`, in notation. In a game
 * of Chess Eleven: its default formation (C12).
 *
 * Offense: seven pieces on the line of scrimmage (the rank of `state.spot`) or behind it,
 * a pawn on the spot (the snapper), a piece right behind it to take the snap, at least two
 * pawns. Defense: seven pieces strictly beyond the line, on squares the offense does not
 * hold, at least two pawns, no king.
 *
 * shape: optional array of [role, fileOffset, rankOffset] to place first, offsets from the
 * spot: rankOffset 0 is the line of scrimmage, negative toward `side`'s own end zone (-1:
 * one rank behind the line as `side` sees it). The offense stands at 0 and below, the
 * defense at -1 and below, so one shape reads the same for White and Black. Entries that
 * would break a rule (off the board, on the wrong side of the line, a taken square, a king
 * on defense, more pieces of a role than a sideline holds, an eighth piece, a piece that
 * would leave no room for two pawns) are skipped; the rest is filled at random with `rng`
 * (from createRng; default: a fresh unseeded one).
 */
// Chess Eleven's default formations (protocol/CHESS-ELEVEN.md, C12).
const ELEVEN_DEFAULT = {
  white: '[Rc1,Kd1,Qe1,Rf1,Bb2,Pc2,Pd2,Pe2,Pf2,Nc3,Nf3]/B',
  black: '[Nc6,Nf6,Bb7,Pc7,Pd7,Pe7,Pf7,Rc8,Kd8,Qe8,Rf8]/B',
};

function formation(state, side, rng, shape) {
  // Chess Eleven (its formation state names the side to kick off): the default formation.
  if ('kick_off' in state) return ELEVEN_DEFAULT[side];
  rng = rng || createRng();
  const offense = state.offense;
  const spot = state.spot;
  const line = Number(spot[1]);
  const towardGoal = side === 'white' ? 1 : -1;
  const isOffense = side === offense;
  // The defense avoids every square held (the offense formed first); the offense avoids
  // the other team's squares, which are none when it forms.
  const taken = new Set(
    (state.pieces || []).filter((p) => !isOffense || p.side !== side).map((p) => p.square),
  );

  const allowed = (sq) => {
    if (taken.has(sq)) return false;
    const ahead = (Number(sq[1]) - line) * (offense === 'white' ? 1 : -1);
    return isOffense ? ahead <= 0 : ahead >= 1;
  };
  const onBoard = (f, r) => f >= 0 && f < 8 && r >= 1 && r <= 8;

  const left = { ...SIDELINE };
  if (!isOffense) left.K = 0;
  const placed = new Map(); // square -> role, in placement order

  let pawns = 0;
  // Seven pieces at most, and room kept for the two pawns: a long shape cannot push the
  // formation over seven (too many men) or leave it short of pawns.
  const roomFor = (role) => {
    const pawnsMissing = Math.max(0, 2 - pawns - (role === 'P' ? 1 : 0));
    return placed.size + 1 + pawnsMissing <= 7;
  };
  const put = (sq, role) => {
    if (placed.has(sq) || !allowed(sq) || !(left[role] > 0) || !roomFor(role)) return false;
    if (role === 'P') pawns += 1;
    placed.set(sq, role);
    left[role] -= 1;
    return true;
  };

  if (isOffense) put(spot, 'P');
  for (const entry of shape || []) {
    const [role, df, dr] = entry;
    const f = FILES.indexOf(spot[0]) + Number(df);
    const r = line + Number(dr) * towardGoal;
    if (Number.isInteger(f) && Number.isInteger(r) && onBoard(f, r)) put(FILES[f] + r, role);
  }
  if (isOffense) {
    const r = line - towardGoal;
    const behind = spot[0] + r;
    if (r >= 1 && r <= 8 && !placed.has(behind)) {
      const roles = [...'QRBN'].filter((role) => left[role] > 0);
      if (roles.length) put(behind, rng.choice(roles));
    }
  }
  const free = [];
  for (let r = 1; r <= 8; r++) {
    for (const f of FILES) {
      const sq = f + r;
      if (!placed.has(sq) && allowed(sq)) free.push(sq);
    }
  }
  rng.shuffle(free);
  while (pawns < 2 && free.length) put(free.pop(), 'P');
  const pool = [];
  for (const [role, n] of Object.entries(left)) for (let i = 0; i < n; i++) pool.push(role);
  rng.shuffle(pool);
  while (placed.size < 7 && free.length && pool.length) put(free.pop(), pool.pop());
  return '[' + [...placed].map(([sq, role]) => role + sq).join(',') + ']';
}

/**
 * A safe answer when `decide` fails: a legal formation when one is asked for, else the
 * first legal action (`pass` only when the request lists nothing).
 */
function fallback(request, rng) {
  if (request.decision === 'formation') {
    return formation(request.state, request.side, rng);
  }
  const legal = Array.isArray(request.legal) ? request.legal : [];
  return legal.length ? legal[0] : 'pass';
}

/**
 * Why the referee would reject `text` as `side`'s formation outright (rule R21: not a
 * formation in notation, a square named twice, more pieces of a role than a sideline holds,
 * a square the other team holds), or null when it can be placed. A formation that can be
 * placed but breaks a formation rule (R22) is legal and draws a flag: that returns null.
 */
function formationProblem(state, side, text) {
  // Chess Eleven's formations are the referee's to judge (C5-C13).
  if ('kick_off' in state) return /^\[[^\]]*\]\/[QRBNP]$/.test(text) ? null : 'not a formation ([Kd1,...]/B)';
  const m = /^\[(.*)\]$/.exec(text);
  if (!m) return 'not a formation ([Pd5,...])';
  const items = m[1] === '' ? [] : m[1].split(',');
  if (items.length > 16) return 'more than 16 pieces';
  const count = {};
  const seen = new Set();
  const other = new Set(
    ((state && state.pieces) || []).filter((p) => p.side !== side).map((p) => p.square),
  );
  for (const item of items) {
    if (!/^[PNBRQK][a-h][1-8]$/.test(item)) return `${JSON.stringify(item)} is not a role and a square`;
    const [role, sq] = [item[0], item.slice(1)];
    if (seen.has(sq)) return `${sq} named twice`;
    seen.add(sq);
    count[role] = (count[role] || 0) + 1;
    if (count[role] > SIDELINE[role]) return `more than ${SIDELINE[role]} of ${role}`;
    if (other.has(sq)) return `${sq} is held by the other team`;
  }
  return null;
}

/** Why `action` cannot be sent for `request`, or null when it can. */
function problem(request, action) {
  if (typeof action !== 'string' || action === '') {
    return `decide returned ${action === '' ? 'an empty string' : typeof action}, not an action`;
  }
  if (request.decision === 'formation') {
    const why = formationProblem(request.state, request.side, action);
    return why && `decide returned the formation ${JSON.stringify(action)}: ${why}`;
  }
  if (Array.isArray(request.legal) && !request.legal.includes(action)) {
    return `decide returned ${JSON.stringify(action)}, which is not in the legal list`;
  }
  return null;
}

// --- the loop ------------------------------------------------------------------------

/**
 * Serves the protocol until `quit` or the end of stdin, then exits the process (code 0).
 *
 * decide(request, ctx) -> string (or a Promise of one): the action for a `request`.
 *   ctx.rng is a generator seeded from game_start's seed and side (so a game replays the
 *   same way); ctx.gameStart is the game_start message (null before it).
 * info: { name, author, version, options, wants, onGameStart(msg, ctx), onMessage(msg, ctx) }
 *   options: the settings declared in `ready`; their values arrive in game_start.options.
 *   wants: in protocol version 2, words to add to `ready`'s `wants` (it always asks for
 *   the state, the legal list, events and results: everything version 1 sends).
 *   onGameStart is called with game_start; onMessage with every other message that run
 *   does not answer itself (result, event, game_end, and any unknown type).
 * The returned Promise settles at the end of input, just before the process exits.
 */
function run(decide, info = {}) {
  const ctx = { rng: createRng(0), gameStart: null };
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  let done = false;
  let chain = Promise.resolve();

  // A referee that has gone away: nothing more to say, leave quietly.
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });

  const finish = () => {
    if (done) return;
    done = true;
    rl.close();
    process.stdin.pause();
    // Exit once everything written has reached the pipe (timers of the bot must not
    // keep a finished bot alive).
    process.stdout.write('', () => process.exit(0));
  };

  const answer = async (msg) => {
    let action;
    try {
      action = await decide(msg, ctx);
    } catch (e) {
      log(`zebra_bot: decide failed on request ${msg.id}: ${(e && e.stack) || e}`);
      action = undefined;
    }
    const why = problem(msg, action);
    if (why) {
      if (action !== undefined) log(`zebra_bot: ${why} (request ${msg.id}); sending the fallback`);
      try {
        action = fallback(msg, ctx.rng);
      } catch (e) {
        log(`zebra_bot: no fallback for request ${msg.id}: ${(e && e.stack) || e}`);
        action = 'pass';
      }
    }
    sendAction(msg.id, action);
  };

  const handle = async (msg) => {
    if (done) return;
    switch (msg.type) {
      case 'hello': {
        const offered = Array.isArray(msg.versions) ? msg.versions : [];
        const protocol = offered.includes(2) ? 2 : 1;
        if (!offered.includes(protocol)) {
          log(`zebra_bot: the referee offers ${JSON.stringify(msg.versions)}; this module speaks 1 and 2`);
        }
        send(ready(info, protocol));
        break;
      }
      case 'ping':
        send({ type: 'pong', id: msg.id === undefined ? null : msg.id });
        break;
      case 'request':
        await answer(msg);
        break;
      case 'quit':
        finish();
        break;
      case 'game_start':
        ctx.gameStart = msg;
        ctx.rng = createRng(`${msg.seed === undefined ? 0 : msg.seed}:${msg.side || ''}`);
        if (info.onGameStart) info.onGameStart(msg, ctx);
        break;
      default:
        if (info.onMessage) info.onMessage(msg, ctx);
    }
  };

  return new Promise((resolve) => {
    rl.on('line', (line) => {
      const msg = parseLine(line);
      if (!msg) return;
      // One message at a time, in order, even when decide is async.
      chain = chain
        .then(() => handle(msg))
        .catch((e) => log(`zebra_bot: ${(e && e.stack) || e}`));
    });
    rl.on('close', () => {
      chain.then(() => {
        finish();
        resolve();
      });
    });
  });
}

module.exports = {
  PROTOCOL_VERSION,
  FILES,
  SIDELINE,
  log,
  createRng,
  send,
  sendAction,
  sendLog,
  ready,
  parseLine,
  formation,
  formationProblem,
  fallback,
  run,
};
