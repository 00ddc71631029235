// The page's entry (index.html loads it): hands the shell's parts to the app object, then starts
// (boot.js). The parts import app.js and never this module, so the shell's modules import one
// another in one direction only: main.js, boot.js, render.js, then undo-bar.js and save-queue.js,
// routes.js and the pages, app.js at the bottom.

import { connectShell, pageOf } from "./app.js";
import { boot } from "./boot.js";
import * as render from "./render.js";
import { parseRoute } from "./routes.js";
import * as saveQueue from "./save-queue.js";
import * as undoBar from "./undo-bar.js";

connectShell({ render, saveQueue, undoBar, pageNow: () => pageOf(parseRoute()) });
boot();
