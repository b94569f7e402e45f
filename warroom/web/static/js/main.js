// Entry point: the lobby at "/", a game at "/play/<id>" (its seat token in ?token= or this browser's store).
import { showLobby } from "./lobby.js";
import { showGame } from "./game.js";

const root = document.getElementById("app");
const match = location.pathname.match(/^\/play\/([A-Za-z0-9_-]+)/);
if (match) {
  showGame(root, match[1], new URLSearchParams(location.search));
} else {
  showLobby(root);
}
