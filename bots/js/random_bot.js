#!/usr/bin/env node
'use strict';
/**
 * A complete random bot for Zebra, in plain Node.js (built-in modules only).
 *
 *     zebra play --white 'node bots/js/random_bot.js'     # against the bundled random bot
 *
 * It picks uniformly among the legal actions of each request (never a timeout), snaps at
 * once and never reacts before the snap, and builds its formations from the state:
 *
 * - offense: a pawn on the ball spot (the snapper), a piece right behind it to take the
 *   snap, and five more pieces (at least one more pawn) on or behind the line;
 * - defense: seven pieces, at least two pawns, no king, all beyond the line, on squares
 *   the offense does not hold.
 *
 * The generator (ctx.rng) is seeded from game_start (seed and side), so a game replays the
 * same way.
 */

const path = require('path');
const zebra = require(path.join(__dirname, 'zebra_bot.js'));

function decide(request, ctx) {
  if (request.decision === 'formation') {
    return zebra.formation(request.state, request.side, ctx.rng);
  }
  const legal = (request.legal || []).filter((a) => a !== 'timeout');
  if (request.decision === 'motion' && legal.includes('snap')) return 'snap';
  if (request.decision === 'reaction' && legal.includes('pass')) return 'pass';
  return legal.length ? ctx.rng.choice(legal) : undefined; // undefined: the helper's fallback
}

zebra.run(decide, { name: 'js-random', author: 'zebra', version: '1.0' });
