// Verifiable dice (docs/fairness.md): an online game shows every seat the commitment to its secret key
// from the start (SHA-256 of the key), and the key itself once the game is over, with a button that
// downloads the record and asks the server to re-derive every die from the key (POST /api/verify).
// Anyone can make the same check offline: `warroom verify RECORD --commitment HEX`.
// The decisions are bound alike: every view holds `moves`, a running digest of the decisions so far keyed
// by the same secret; the page shows it beside the commitment, keeps the last one it was shown in this
// browser, and sends it with the record to be checked (`warroom verify RECORD --digest N:HEX`).
import { h } from "./dom.js";

const results = new Map(); // game id -> the last check's outcome, kept across re-renders of the panel
const WRAP = "word-break: break-all"; // a 64-digit hex string wraps anywhere (set through the CSSOM: the CSP allows no inline styles)

// The header chip of a game whose dice are committed to: "dice committed: <first 16 hex digits>…".
export function fairnessChip(p) {
  const f = p.fairness;
  if (!f || !f.commitment) return null;
  const title = f.seed
    ? `The dice came from the secret key revealed at the end; SHA-256 of it is ${f.commitment}, the commitment shown from the start.`
    : `The dice come from a secret key the server drew before the first move. SHA-256 of it is ${f.commitment}: `
      + "note it down. The key is revealed when the game is over, and every die can then be checked against it.";
  return h("span", { class: "rules-chip fairness-chip", id: "fairness", title }, `dice committed: ${f.commitment.slice(0, 16)}…`);
}

// The header chip of the decisions' digest: "moves 59: <first 16 hex digits>…"; noted in this browser as it comes.
export function movesChip(p) {
  const m = p.view && p.view.moves;
  if (!m || !p.fairness || !p.fairness.commitment) return null;
  noteDigest(p.id, p.side, m, p.view.over);
  const title = `A digest of the ${m.decisions} decisions made so far, keyed by the dice's secret key: ${m.digest}. `
    + "Note it down: once the key is revealed it checks that the record holds the decisions played (warroom verify --digest).";
  return h("span", { class: "rules-chip fairness-chip", id: "moves-digest", title }, `moves ${m.decisions}: ${m.digest.slice(0, 16)}…`);
}

// The last digest this browser was shown for a game, kept across reloads: while the game goes on each new one
// replaces it; once it is over only a later decision's does (a record changed afterwards must not overwrite it).
function noteDigest(id, side, moves, over) {
  try {
    const key = `warroom-moves:${id}`;
    const kept = JSON.parse(localStorage.getItem(key) || "null");
    if (over && kept && kept.decisions >= moves.decisions) return;
    localStorage.setItem(key, JSON.stringify({ decisions: moves.decisions, digest: moves.digest, seen_by: side }));
  } catch (err) { /* no storage (a private window): the check goes on without a digest of its own */ }
}

function keptDigest(id) {
  try { return JSON.parse(localStorage.getItem(`warroom-moves:${id}`) || "null"); } catch (err) { return null; }
}

// After the game: the commitment, the revealed key and "Verify the dice". Null for games that commit to nothing.
export function fairnessPanel(p, id, token) {
  const f = p.fairness;
  if (!f || !f.commitment || !f.seed || !p.view.over) return null;
  const outcome = h("p", { id: "verify-result", "aria-live": "polite" });
  const show = (result) => {
    if (!result) return;
    outcome.textContent = result.text;
    outcome.className = result.ok ? "verify-ok" : "error";
  };
  show(results.get(id));
  const button = h("button", { id: "verify-dice", onclick: async () => {
    button.disabled = true;
    outcome.textContent = "Checking every die against the key…";
    outcome.className = "muted";
    const result = await verifyGame(id, token, f.commitment, keptDigest(id));
    results.set(id, result);
    show(result);
    button.disabled = false;
  } }, "Verify the dice");
  return h("div", { class: "fairness", id: "fairness-check" },
    h("h3", {}, "Fair dice"),
    h("p", { class: "muted" }, "Shown from the first move (SHA-256 of the key):"),
    h("code", { id: "fairness-commitment", style: WRAP }, f.commitment),
    h("p", { class: "muted" }, "The secret key, revealed now the game is over:"),
    h("code", { id: "fairness-seed", style: WRAP }, f.seed),
    ...movesLines(keptDigest(id)),
    h("div", { class: "row" }, button),
    outcome);
}

// The digest of the decisions this browser was shown last, to check the record's decisions with.
function movesLines(kept) {
  if (!kept) return [];
  return [
    h("p", { class: "muted" }, `The decisions' digest this browser was shown at decision ${kept.decisions}:`),
    h("code", { id: "fairness-moves", style: WRAP }, kept.digest),
  ];
}

// Download this seat's record and have the server replay it with the key: {ok, text}.
async function verifyGame(id, token, commitment, kept) {
  try {
    const record = await json(await fetch(`/api/games/${id}/record`, { headers: { "Accept": "application/json", "X-Warroom-Token": token } }));
    const digests = kept ? [kept] : [];
    const report = await json(await fetch("/api/verify", {
      method: "POST",
      headers: { "Accept": "application/json", "Content-Type": "application/json" },
      body: JSON.stringify({ record, commitment, digests }),
    }));
    return { ok: report.verified, text: report.verified ? `Verified: ${report.message}.` : `NOT verified: ${report.message}.` };
  } catch (err) {
    return { ok: false, text: `The check could not be made: ${err.message}` };
  }
}

async function json(response) {
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (!response.ok) throw new Error(data && data.error ? data.error.message : response.statusText || `HTTP ${response.status}`);
  return data;
}
