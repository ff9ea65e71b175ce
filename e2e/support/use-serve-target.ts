/**
 * Import before anything from e2e/support: the benchmarks and screenshots measure and show the
 * page `islet serve` gives Chromium, even on a machine where an Electron binary would make the
 * specs' default target Electron. (ES modules run in import order, so this runs before target.ts.)
 */
process.env.ISLET_E2E_TARGET ??= "serve";
