/** The app version (kept in step with package.json's "version"; a test checks it). */
export const APP_VERSION = "0.1.0";
