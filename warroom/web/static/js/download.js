// "Download record": what this seat may keep of its game, saved as a file, and a word on what it is.
//
// The server answers the whole record once the game is over (or where nothing is hidden from the seat), else the
// seat's own record of the game so far (format "warroom-seat-record": its decisions and what it saw). The page
// fetches it rather than following a plain link, so that a refusal or a lost connection is said on the page
// instead of failing silently, and the player is told which of the two the file holds.
import { ApiError } from "./api.js";
import { h } from "./dom.js";

const SEAT_RECORD = "warroom-seat-record";

function fileName(response, fallback) {
  const disposition = response.headers.get("Content-Disposition") || "";
  const found = /filename="([^"]+)"/.exec(disposition);
  return found ? found[1] : fallback;
}

// Fetch the record with the seat's token and save it; resolves to {seat, text} (seat: whether it is the seat's
// own view), rejects with an ApiError whose message says why nothing was saved.
export async function downloadRecord(id, token, fallbackName) {
  let response;
  try {
    response = await fetch(`/api/games/${id}/record`, { headers: { "Accept": "application/json", "X-Warroom-Token": token } });
  } catch (err) {
    throw new ApiError(0, "offline", "The record was not saved: the server cannot be reached.");
  }
  const body = await response.text();
  let data = null;
  try { data = JSON.parse(body); } catch (err) { data = null; }
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: `http_${response.status}`, message: response.statusText || "the server refused" };
    throw new ApiError(response.status, error.code, `The record was not saved: ${error.message}`);
  }
  const name = fileName(response, fallbackName);
  const url = URL.createObjectURL(new Blob([body], { type: "application/json" }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
  if (data && data.format === SEAT_RECORD) {
    return {
      seat: true,
      text: `Saved ${data.view_of}'s record of the game so far (${name}): your own decisions and what you were shown. ` +
        "It cannot be replayed or continued as the whole game; download again once the game is over for the whole record.",
    };
  }
  return { seat: false, text: `Saved the whole record (${name}).` };
}
