// A finished game's page: its script. The modules it starts read the page only when started,
// so that Node's tests can import them.

import { startReplay } from "./replay.js";

startReplay();
