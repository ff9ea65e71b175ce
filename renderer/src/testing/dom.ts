/**
 * A browser's globals (window, document, elements, events) from happy-dom, for component tests
 * under node:test. Import it before React DOM or Testing Library load: both look for a document
 * when their module is evaluated.
 */
import { GlobalRegistrator } from "@happy-dom/global-registrator";

if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: "http://localhost/", width: 1280, height: 800 });
  // happy-dom lays nothing out, so every box is 0×0 and a virtualized list (the transcript)
  // would draw no rows. Each element reports the window's size instead, as if it filled it.
  Object.defineProperties(HTMLElement.prototype, {
    clientWidth: { configurable: true, get: () => window.innerWidth },
    clientHeight: { configurable: true, get: () => window.innerHeight },
  });
}
