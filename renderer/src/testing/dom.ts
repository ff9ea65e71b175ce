/**
 * A browser's globals (window, document, elements, events) from happy-dom, for component tests
 * under node:test. Import it before React DOM or Testing Library load: both look for a document
 * when their module is evaluated.
 */
import { GlobalRegistrator } from "@happy-dom/global-registrator";

if (!GlobalRegistrator.isRegistered) GlobalRegistrator.register({ url: "http://localhost/" });
