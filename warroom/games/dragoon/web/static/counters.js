// NATO-style unit counters drawn in SVG: unit symbol, echelon, short name, and status markers.
import { s, text } from "/static/js/svg.js";

export const SIZE = 60;

const FILL = { US: "#b7c189", French: "#9dbbe3", German: "#c4c8cc", panzer: "#8e969e" };
const ROUTE_COLORS = { green: "#2f7d4a", red: "#b8322a", blue: "#2c62a8" };

export function routeColor(name) {
  return ROUTE_COLORS[name] || name || "#555";
}

// "VI-Corps" -> "VI", "3rd-ID" -> "3", "1st-ABTF" -> "1 ABTF", "11-PzD" -> "11 PzD"
export function shortName(id) {
  return id.replace(/-(ID|Corps)$/, "").replace(/^(\d+)(st|nd|rd|th)\b/, "$1").replace(/-/g, " ");
}

function symbol(type, x, y, w, hgt) {
  const g = s("g", { class: "nato" });
  g.append(s("rect", { x, y, width: w, height: hgt, fill: "#fff", stroke: "#1b1b1b", "stroke-width": 1.6 }));
  const cross = () => {
    g.append(s("path", { d: `M${x} ${y}L${x + w} ${y + hgt}M${x + w} ${y}L${x} ${y + hgt}`, stroke: "#1b1b1b", "stroke-width": 1.4 }));
  };
  if (type === "panzer") {
    g.append(s("rect", { x: x + 5, y: y + 4, width: w - 10, height: hgt - 8, rx: (hgt - 8) / 2, fill: "none", stroke: "#1b1b1b", "stroke-width": 1.6 }));
  } else if (type === "airborne") {
    cross();
    g.append(s("path", { d: `M${x + w / 2 - 6} ${y + hgt - 1}q6 -6 12 0`, fill: "none", stroke: "#1b1b1b", "stroke-width": 1.4 }));
  } else if (type === "security") {
    cross();
    g.append(s("rect", { x: x + w / 2 - 7, y: y + hgt / 2 - 4, width: 14, height: 8, fill: "#fff" }));
    g.append(text(x + w / 2, y + hgt / 2 + 3, "RS", { class: "nato-tag" }));
  } else {
    cross();
  }
  return g;
}

// One counter centred on (0, 0); the caller positions it with a transform.
export function counter(id, unit, status = {}) {
  const classes = ["counter", unit.side === "Allied" ? "allied" : "german"];
  if (status.stalled) classes.push("stalled");
  if (status.desperate) classes.push("desperate");
  if (status.selectable) classes.push("selectable");
  if (status.selected) classes.push("selected");
  if (status.targeted) classes.push("targeted");
  const g = s("g", { class: classes.join(" "), dataset: { unit: id }, role: "button", tabindex: status.selectable ? 0 : undefined, "aria-label": `${unit.name}${status.stalled ? ", stalled" : ""}${status.desperate ? ", desperate defense" : ""}${status.ffi ? ", with FFI" : ""}` });
  const half = SIZE / 2;
  const fill = unit.type === "panzer" ? FILL.panzer : (FILL[unit.nation] || FILL.German);
  g.append(s("title", {}, unitTitle(unit, status)));
  if (status.selectable || status.targeted) g.append(s("rect", { class: "halo", x: -half - 6, y: -half - 6, width: SIZE + 12, height: SIZE + 12, rx: 8 }));
  g.append(s("rect", { class: "body", x: -half, y: -half, width: SIZE, height: SIZE, rx: 4, fill, stroke: "#222", "stroke-width": 1.2 }));
  if (unit.color) g.append(s("rect", { x: -half, y: -half, width: SIZE, height: 5, rx: 2, fill: routeColor(unit.color) }));
  if (unit.echelon) g.append(text(0, -half + 14, unit.echelon, { class: "echelon" }));
  g.append(symbol(unit.type, -16, -9, 32, 19));
  g.append(text(0, half - 7, shortName(id), { class: unit.type === "panzer" ? "cname light" : "cname" }));
  // status bands sit on the counter's top edge (over the echelon), never over the unit's designation
  if (status.stalled) {
    g.append(s("rect", { class: "stall-veil", x: -half, y: -half, width: SIZE, height: SIZE, rx: 4 }));
    g.append(s("rect", { class: "status-band", x: -half, y: -half, width: SIZE, height: 13, rx: 3, fill: "#b3261e" }));
    g.append(text(0, -half + 10, "STALLED", { class: "band" }));
  }
  if (status.desperate) {
    g.append(s("rect", { x: -half + 1, y: -half + 1, width: SIZE - 2, height: SIZE - 2, rx: 4, fill: "none", stroke: "#b3261e", "stroke-width": 3 }));
    g.append(s("rect", { class: "status-band", x: -half, y: -half, width: SIZE, height: 13, rx: 3, fill: "#b3261e" }));
    g.append(text(0, -half + 10, `DESP ${status.desperate}`, { class: "band" }));
  }
  if (status.ffi) {
    const ffi = s("g", { class: "ffi-marker", transform: `translate(${half - 4},${-half + 4})` });
    ffi.append(s("circle", { r: 10, fill: "#fff", stroke: "#1d3f8f", "stroke-width": 2 }));
    ffi.append(s("path", { d: "M-7 -7h4.6v14h-4.6z", fill: "#1d3f8f" }), s("path", { d: "M2.4 -7h4.6v14h-4.6z", fill: "#c8102e" }));
    ffi.append(text(0, 3.5, "FFI", { class: "ffi-text" }));
    ffi.append(s("title", {}, "FFI marker: one re-roll, attacking or defending"));
    g.append(ffi);
  }
  if (status.spent) {
    g.append(s("circle", { cx: -half + 6, cy: -half + 12, r: 5, fill: "#333", opacity: 0.75 }));
  }
  return g;
}

function unitTitle(unit, status) {
  const parts = [unit.name];
  if (status.stalled) parts.push("stalled: flip it to active (1 RP) before it can attack");
  if (status.desperate) parts.push(`desperate defense: ${status.desperate} to Allied attack rolls`);
  if (status.ffi) parts.push("FFI marker: one re-roll");
  if (status.spent) parts.push("has attacked, invaded or landed this turn");
  return parts.join(" — ");
}
