// Electron main entry (bundled to out/main/index.js). Deliberately thin: the desktop shell lives
// in main/electron/, the only folder that may import 'electron' (SPEC §2).
import "./electron/app.ts";
