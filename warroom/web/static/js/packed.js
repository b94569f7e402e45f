// A view's legal actions arrive once, packed (warroom/web/packed.py says the format): the ids in view.legal, the
// descriptors as a table whose rows follow them. unpackView turns them back, in place, into what the page and the
// boards read: payload.actions (a descriptor with its id per legal action) and payload.labels (id -> label).

export function unpackActions(packed, legal) {
  const fields = packed.fields;
  const coded = new Set(packed.text);
  const out = [];
  let before = {};
  packed.rows.forEach((row, i) => {
    const d = { id: legal[i] };
    fields.forEach((field, k) => {
      let cell = row[k];
      if (cell === null || cell === undefined) return;
      if (coded.has(field) && typeof cell === "number") cell = before[field].slice(0, cell);
      else if (coded.has(field) && Array.isArray(cell)) cell = before[field].slice(0, cell[0]) + cell[1];
      d[field] = cell;
    });
    out.push(d);
    before = d;
  });
  return out;
}

// A view as the server sends it (GET a game, an action's or an undo's answer, a push), unpacked in place; anything
// else is left as it is.
export function unpackView(payload) {
  if (payload && payload.view && payload.actions && !Array.isArray(payload.actions)) {
    payload.actions = unpackActions(payload.actions, payload.view.legal);
    payload.labels = Object.fromEntries(payload.actions.map((d) => [d.id, d.label]));
  }
  return payload;
}
